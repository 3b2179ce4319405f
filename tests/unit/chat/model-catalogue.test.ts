import { afterEach, describe, expect, it, vi } from "vitest";
import { modelsAnswerSchema } from "@/lib/http/schemas";

/** A valid `GET /api/models` answer; `error` set when the provider did not give its list. */
const answer = (error: string | null) =>
  modelsAnswerSchema.parse({
    provider: { kind: "openai-compatible", label: "m via x", model: "m", summaryModel: "m" },
    models:
      error === null
        ? [{ id: "m", contextWindow: 8192, tools: true, vision: false, known: true, price: null }]
        : [],
    error,
    contextWindow: 8192,
    notice: null,
  });

/** Lets a fetch answered at once be read and parsed. */
const settle = () => new Promise((r) => setTimeout(r, 20));

/** A fresh catalogue module (its state is the page's) over a fetch answering `bodies` in turn. */
async function catalogue(bodies: unknown[]) {
  vi.resetModules();
  const fetch = vi.fn(async () => Response.json(bodies.shift()));
  vi.stubGlobal("fetch", fetch);
  const module = await import("@/components/chat/model-catalogue");
  return { module, fetch };
}

afterEach(() => vi.unstubAllGlobals());

describe("the page's model catalogue", () => {
  it("asks once while the provider gives its list", async () => {
    const { module, fetch } = await catalogue([answer(null), answer(null)]);
    module.loadModels();
    await settle();
    module.loadModels();
    module.loadModels();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("asks again when the provider did not give its list", async () => {
    const { module, fetch } = await catalogue([
      answer("The provider did not answer."),
      answer(null),
    ]);
    module.loadModels();
    // A second ask while the first is on its way sends nothing.
    module.loadModels();
    await settle();
    expect(fetch).toHaveBeenCalledTimes(1);
    module.loadModels();
    await settle();
    expect(fetch).toHaveBeenCalledTimes(2);
    // That answer was whole: held from now on.
    module.loadModels();
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
