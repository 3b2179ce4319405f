import { EngineError } from "@/lib/engine/errors";
import { guarded } from "@/lib/http/guard";
import { accountOf } from "@/lib/auth/actor";
import { apiKeyCreateSchema } from "@/lib/http/schemas";

export const dynamic = "force-dynamic";

/** The caller's live API keys (never the keys themselves). */
export function GET(req: Request) {
  return guarded(req, async ({ actor, services }) =>
    Response.json({ keys: await services.keys.list(accountOf(actor)) }),
  );
}

/** Creates a key, shown once: `{id, name, key}`. Only a signed-in browser may mint keys. */
export function POST(req: Request) {
  return guarded(req, async ({ actor, services, json }) => {
    const { name } = await json(apiKeyCreateSchema);
    if (actor.via === "key") {
      throw new EngineError("forbidden", "Create API keys while signed in (Account page).");
    }
    const created = await services.keys.create(accountOf(actor), name);
    return Response.json(created, { status: 201 });
  });
}
