/**
 * bash-parse: the permission parser's throughput. A generated corpus of 1 000 realistic commands
 * (plain, lists and pipes, redirections, cd chains, wrappers, sh -c strings, loops, heredocs) is
 * parsed in full, best of several rounds after a warm-up; prints commands parsed per second.
 * Baseline in the same run: bash's own parser (`bash -n`) on the same lines, one process for the
 * whole corpus written as one script, so that only parsing is compared.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { BashParse } from "../src/tool/builtin/bash/parse.js"

const COMMANDS = 1_000
const ROUNDS = 5

const templates: ReadonlyArray<(n: number) => string> = [
  (n) => `git status -s && git diff --stat HEAD~${n % 5}`,
  (n) => `npm run test -- --watch=false --shard=${n % 4}/4`,
  (n) => `cd packages/app${n % 3} && npm run build > build.log 2>&1`,
  (n) => `rg -n "TODO" src | head -${n % 50} | sort | uniq -c`,
  (n) => `find . -name '*.tmp' -mtime +${n % 9} -exec rm -f {} \\;`,
  (n) => `CI=true timeout ${n % 60} cargo test --workspace -- --nocapture`,
  (n) => `sudo -u deploy env NODE_ENV=production node dist/server.js --port ${3_000 + (n % 100)} &`,
  (n) => `bash -c 'for f in src/*.ts; do wc -l "$f"; done' > counts${n}.txt`,
  (n) => `docker compose -f compose.yml up -d web${n % 3} && docker compose logs --tail ${n % 200}`,
  (n) => `if [ -f .env ]; then echo found; else cp .env.example .env; fi; echo ${n}`,
  (n) => `ls -la ~/projects/${n} | tee -a /tmp/listing.txt >/dev/null`,
  (n) => `python3 -m pytest tests/test_${n % 20}.py -x -q 2>&1 | tail -n 20`,
  (n) => `cat <<EOF > config${n}.json\n{ "value": ${n} }\nEOF`,
  (n) => `git log --oneline | grep -c fix; echo "$(date +%s)-${n}"`,
  (n) => `xargs -0 -n1 -P4 gzip < files${n % 7}.list`,
  (n) => `pushd /tmp/build${n % 4} && make -j4 && popd`,
  (n) => `while read -r line; do echo "$line" >> out${n % 3}.txt; done < input.txt`,
  (n) => `kubectl get pods -n ns${n % 5} -o json | jq '.items | length'`,
  (n) => `curl -fsSL https://example.com/${n}.json -o /tmp/${n}.json`,
  (n) => `case "$MODE" in dev) npm run dev;; prod) npm start;; *) echo ${n};; esac`,
]

const corpus = Array.from({ length: COMMANDS }, (_, n) => (templates[n % templates.length] as (n: number) => string)(n))
const parser = await BashParse.load()
const options = { home: "/home/bench" }

const round = () => {
  const start = process.hrtime.bigint()
  for (const command of corpus) parser.parse(command, options)
  return Number(process.hrtime.bigint() - start) / 1e6
}

round()
const best = Math.min(...Array.from({ length: ROUNDS }, round))
const dir = mkdtempSync(path.join(os.tmpdir(), "bash-parse-"))
const script = path.join(dir, "corpus.sh")
// Each command on its own line(s), separated so that a heredoc or a case stays closed.
writeFileSync(script, `${corpus.join("\n")}\n`)
const bashRound = () => {
  const start = process.hrtime.bigint()
  spawnSync("bash", ["-n", script])
  return Number(process.hrtime.bigint() - start) / 1e6
}
const bash = Math.min(...Array.from({ length: ROUNDS }, bashRound))
rmSync(dir, { recursive: true, force: true })
console.log(`baseline: bash -n on the same ${COMMANDS.toLocaleString("en")} lines in one process: ${bash.toFixed(1)} ms → ratio ${(best / bash).toFixed(1)}× bash's own parser`)
console.log(`bash-parse: ${COMMANDS.toLocaleString("en")} commands in ${best.toFixed(1)} ms, best of ${ROUNDS} → ${Math.round((COMMANDS * 1_000) / best).toLocaleString("en")} commands/s (${((best * 1_000) / COMMANDS).toFixed(1)} µs/command)`)
