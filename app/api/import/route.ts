import { guarded } from "@/lib/http/guard";
import { ledgerShellSchema } from "@/lib/portability/ledger-file";

export const dynamic = "force-dynamic";

/** Imports a JSON ledger (from `GET .../export`) as a new session of the caller's. */
export function POST(req: Request) {
  return guarded(
    req,
    async ({ workspace, json, admit }) => {
      // Taken before the body is read: one account's imports (and their bodies in memory)
      // never fill the server's import slots ([R148]).
      const leave = admit("imports");
      try {
        return Response.json(await workspace.importLedger(await json(ledgerShellSchema)), {
          status: 201,
        });
      } finally {
        leave();
      }
    },
    { bodyLimit: "import" },
  );
}
