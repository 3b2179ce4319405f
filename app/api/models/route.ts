import { guarded } from "@/lib/http/guard";
import { modelCatalogue } from "@/lib/server/model-catalogue";

export const dynamic = "force-dynamic";

/** The configured provider (never its key) and the models it offers, for the model picker. */
export function GET(req: Request) {
  return guarded(req, async ({ services: { providers } }) =>
    Response.json(await modelCatalogue(providers, Date.now(), req.signal)),
  );
}
