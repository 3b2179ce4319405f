import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import type { CorpusConversation } from "./corpus";

/** Where the shipped corpus lives. */
export const CORPUS_DIR = path.join(import.meta.dirname, "corpus");

/** The shipped corpus, in file-name order. */
export function loadCorpus(dir = CORPUS_DIR): CorpusConversation[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as CorpusConversation);
}
