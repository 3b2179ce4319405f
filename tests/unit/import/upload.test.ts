import { describe, expect, it } from "vitest";
import { batches, detectImportFile } from "@/components/import/import-file";
import { UploadStopped, uploadChatGpt } from "@/components/import/upload";

/** The import page's side of [R95]: telling files apart, and sending an export in batches. */

const conv = (title: string, size = 10) => ({ title, mapping: {}, pad: "x".repeat(size) });
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** A fake server: imports every conversation whose title does not start with "bad". */
function fakeServer(refuseWhole: (titles: string[]) => number | null = () => null) {
  const bodies: string[] = [];
  const post = async (_url: string, body: string) => {
    bodies.push(body);
    const list = JSON.parse(body) as { title: string }[];
    const status = refuseWhole(list.map((c) => c.title));
    if (status) return json(status, { error: { code: "invalid_request", message: "refused" } });
    return json(200, {
      imported: list
        .map((c, index) => ({ c, index }))
        .filter(({ c }) => !c.title.startsWith("bad"))
        .map(({ c, index }) => ({ index, sessionId: `S-${c.title}`, title: c.title, nodes: 3 })),
      failed: list
        .map((c, index) => ({ c, index }))
        .filter(({ c }) => c.title.startsWith("bad"))
        .map(({ c, index }) => ({
          index,
          title: c.title,
          error: { code: "invalid_request", message: "bad" },
        })),
    });
  };
  return { post, bodies, wait: async () => undefined };
}

describe("[R95] the import page", () => {
  it("[R95] tells a Spindle ledger, a ChatGPT export and one conversation apart by shape", () => {
    expect(detectImportFile('{"format":"spindle.ledger","nodes":[{},{}]}')).toMatchObject({
      kind: "ledger",
      nodes: 2,
    });
    expect(detectImportFile("[{}, {}]")).toMatchObject({ kind: "chatgpt" });
    expect(detectImportFile('{"mapping":{}}')).toMatchObject({
      kind: "chatgpt",
      conversations: [{ mapping: {} }],
    });
    expect(detectImportFile("[]")).toMatchObject({ kind: "unknown" });
    expect(detectImportFile("{nope")).toEqual({ kind: "unknown", reason: "The file is not JSON." });
    expect(detectImportFile('{"a":1}')).toMatchObject({ kind: "unknown" });
  });

  it("[R95] splits an export into ordered batches under the byte budget", () => {
    const list = [conv("a", 40), conv("b", 40), conv("c", 200), conv("d", 10)];
    const out = batches(list, 200);
    expect(out.map((b) => b.indices)).toEqual([[0, 1], [2], [3]]);
    for (const b of out.filter((x) => x.parts.length > 1)) {
      expect(new TextEncoder().encode(`[${b.parts.join(",")}]`).byteLength).toBeLessThanOrEqual(
        200,
      );
    }
  });

  it("[R95] reports indices of the whole file across batches", async () => {
    const server = fakeServer();
    const list = [conv("a", 60), conv("bad-b", 60), conv("c", 60), conv("bad-d", 60)];
    const result = await uploadChatGpt(list, server, 200);
    expect(server.bodies.length).toBeGreaterThan(1);
    expect(result.imported.map((x) => [x.index, x.title])).toEqual([
      [0, "a"],
      [2, "c"],
    ]);
    expect(result.failed.map((x) => [x.index, x.title])).toEqual([
      [1, "bad-b"],
      [3, "bad-d"],
    ]);
  });

  it("[R95] a batch refused whole is sent again one conversation at a time", async () => {
    const server = fakeServer((titles) => (titles.includes("nul") ? 400 : null));
    const result = await uploadChatGpt([conv("a"), conv("nul"), conv("c")], server, 1_000_000);
    expect(server.bodies).toHaveLength(4);
    expect(result.imported.map((x) => x.index)).toEqual([0, 2]);
    expect(result.failed).toEqual([
      { index: 1, title: "nul", error: { code: "invalid_request", message: "refused" } },
    ]);
  });

  it("[R95] stops with what was imported when the server cannot go on", async () => {
    let calls = 0;
    const post = async () =>
      ++calls === 1
        ? json(200, { imported: [{ index: 0, sessionId: "S", title: "a", nodes: 2 }], failed: [] })
        : json(401, { error: { code: "unauthenticated", message: "Sign in." } });
    const run = uploadChatGpt(
      [conv("a", 100), conv("b", 100)],
      { post, wait: async () => {} },
      150,
    );
    const stopped: unknown = await run.then(
      () => null,
      (e: unknown) => e,
    );
    expect(stopped).toBeInstanceOf(UploadStopped);
    expect((stopped as UploadStopped).message).toBe("Sign in.");
    expect((stopped as UploadStopped).partial.imported).toHaveLength(1);
  });
});
