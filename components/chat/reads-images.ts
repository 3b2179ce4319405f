import type { SessionSettings } from "@/lib/engine/types";
import type { ModelInfo } from "@/components/session/session-store";
import { entryOf, useModels } from "./model-catalogue";

type Catalogue = ReturnType<typeof useModels>;

/**
 * Whether the session's next turn goes to a model that reads images — the server's rule
 * (`visionFor`): never the offline model; else the session's `vision` setting; else the model
 * registry, as the page was given it for the server's model and as the catalogue lists it for
 * another. Null when the page cannot tell (a model the catalogue does not list).
 */
export function readsImages(
  model: Pick<ModelInfo, "offline" | "name" | "vision">,
  settings: Pick<SessionSettings, "model" | "vision"> | undefined,
  catalogue: Catalogue,
): boolean | null {
  if (model.offline) return false;
  if (settings?.vision !== undefined) return settings.vision;
  const name = settings?.model;
  if (name === undefined || name === model.name) return model.vision;
  return entryOf(catalogue, name)?.vision ?? null;
}
