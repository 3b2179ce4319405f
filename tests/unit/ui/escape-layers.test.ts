import { describe, expect, it, vi } from "vitest";
import { EscapeLayers } from "@/components/ui/use-escape-key";

const key = (name: string, prevented = false) =>
  ({ key: name, defaultPrevented: prevented }) as KeyboardEvent;

describe("Escape goes to the topmost layer only", () => {
  it("a panel opened while a reply streams takes Escape; the reply's stop does not run", () => {
    const layers = new EscapeLayers();
    const stop = vi.fn();
    const closePanel = vi.fn();
    layers.add({ current: stop });
    const removePanel = layers.add({ current: closePanel });
    layers.handle(key("Escape"), false);
    expect(closePanel).toHaveBeenCalledTimes(1);
    expect(stop).not.toHaveBeenCalled();
    // Once the panel is gone, Escape stops the reply again.
    removePanel();
    layers.handle(key("Escape"), false);
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it("a key used elsewhere, another key, or an open dialog reaches no layer", () => {
    const layers = new EscapeLayers();
    const handler = vi.fn();
    layers.add({ current: handler });
    layers.handle(key("Escape", true), false);
    layers.handle(key("Enter"), false);
    layers.handle(key("Escape"), true);
    expect(handler).not.toHaveBeenCalled();
  });

  it("a lower layer removed first leaves the top one in place", () => {
    const layers = new EscapeLayers();
    const low = vi.fn();
    const top = vi.fn();
    const removeLow = layers.add({ current: low });
    layers.add({ current: top });
    removeLow();
    layers.handle(key("Escape"), false);
    expect(top).toHaveBeenCalledTimes(1);
    expect(low).not.toHaveBeenCalled();
    expect(layers.size).toBe(1);
  });
});
