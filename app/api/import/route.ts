import { guarded } from "@/lib/http/guard";
import { ledgerShellSchema } from "@/lib/portability/ledger-file";

export const dynamic = "force-dynamic";

/** Imports a JSON ledger (from `GET .../export`) as a new session of the caller's. */
export function POST(req: Request) {
  return guarded(
    req,
    async ({ workspace, json }) =>
      Response.json(await workspace.importLedger(await json(ledgerShellSchema)), { status: 201 }),
    { bodyLimit: "import" },
  );
}
