import { handle, readJson } from "@/lib/http/respond";
import { services } from "@/lib/server/services";
import { ledgerFileSchema, planImport } from "@/lib/portability/ledger-file";
import { newNodeId } from "@/lib/ids";

export const dynamic = "force-dynamic";

/** Imports a JSON ledger (from `GET .../export`) as a new session with fresh ids. */
export function POST(req: Request) {
  return handle(async () => {
    const file = await readJson(req, ledgerFileSchema);
    const { store } = await services();
    const session = await store.importSession(planImport(file, () => newNodeId()));
    return Response.json(session, { status: 201 });
  });
}
