/**
 * Writes the corpus of `npm run eval:compaction` to bench/compaction-eval/corpus/, one JSON
 * file per conversation. The files are shipped; rerun this only after changing a domain or
 * the generator (tests/unit/eval checks the files against it).
 *
 *   npx tsx bench/compaction-eval/generate-corpus.ts
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generateCorpus } from "./corpus";
import { CORPUS_DIR } from "./load-corpus";

mkdirSync(CORPUS_DIR, { recursive: true });
for (const file of readdirSync(CORPUS_DIR)) {
  if (file.endsWith(".json")) rmSync(path.join(CORPUS_DIR, file));
}
const corpus = generateCorpus();
for (const conversation of corpus) {
  writeFileSync(
    path.join(CORPUS_DIR, `${conversation.id}.json`),
    `${JSON.stringify(conversation, null, 2)}\n`,
  );
}
console.log(`wrote ${corpus.length} conversations to ${CORPUS_DIR}`);
