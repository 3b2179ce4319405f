import { guarded } from "@/lib/http/guard";
import { chatGptExportSchema } from "@/lib/http/schemas";

export const dynamic = "force-dynamic";

/**
 * Imports a ChatGPT `conversations.json` (the array, as exported) as one new session per
 * conversation. Each conversation succeeds or fails on its own: the answer lists both,
 * with each conversation's index in the array.
 */
export function POST(req: Request) {
  return guarded(
    req,
    async ({ workspace, json, admit }) => {
      // One account's imports never fill the server's import slots ([R148]).
      const leave = admit("imports");
      try {
        return Response.json(await workspace.importChatGpt(await json(chatGptExportSchema)));
      } finally {
        leave();
      }
    },
    { bodyLimit: "import" },
  );
}
