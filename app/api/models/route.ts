import { guarded } from "@/lib/http/guard";
import { lookupModel } from "@/lib/llm/model-registry";

export const dynamic = "force-dynamic";

/** The configured provider (never its key) and the models it offers, for the settings UI. */
export function GET(req: Request) {
  return guarded(req, async ({ services: { providers } }) => {
    const description = providers.describe();
    let models: { id: string }[] = [];
    let error: string | null = null;
    try {
      models = (await providers.chat.listModels(req.signal)).map((m) => ({ id: m.id }));
    } catch (e) {
      error = e instanceof Error ? e.message : "The provider did not list its models.";
    }
    const limits = lookupModel(description.model);
    return Response.json({
      provider: description,
      models,
      error,
      contextWindow: limits.contextWindow,
      notice: limits.notice ?? null,
    });
  });
}
