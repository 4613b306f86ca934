import { describe, expect, it } from "@effect/vitest"
import { BashArity } from "../../../../src/tool/builtin/bash/arity.js"

const words = (command: string) => command.split(" ")

describe("BashArity.arity", () => {
  const cases: ReadonlyArray<readonly [string, number]> = [
    ["rm -rf x", 1],
    ["ls", 1],
    ["git status -s", 2],
    ["git", 2],
    ["git stash pop", 3],
    ["cargo build --release", 2],
    ["npm install", 2],
    ["npm run test -- --watch", 3],
    ["docker compose up -d", 3],
    ["docker ps", 2],
    ["gh pr create", 3],
    ["kubectl get pods", 2],
    ["aws s3 ls", 3],
    ["consul kv delete x", 3],
    ["consul acl token create", 4],
    ["gcloud compute instances delete vm", 4],
    ["gcloud projects delete p", 3],
    ["az network vnet delete", 4],
    ["az vm delete", 3],
    ["terraform state rm x", 3],
    ["helm plugin install x", 3],
    ["vault kv put a b=c", 3],
    ["kubectl set image deploy/x", 3],
    ["/usr/bin/git push origin", 2],
    ["./gradlew build", 2],
    ["constructor x", 1],
    ["toString x", 1],
    ["__proto__ x", 1],
  ]
  for (const [command, arity] of cases) it(`gives ${command} arity ${arity}`, () => expect(BashArity.arity(words(command))).toBe(arity))

  it("lists arities 2 to 4 only, each at least as long as its key", () => {
    for (const [key, arity] of Object.entries(BashArity.TABLE)) {
      expect([2, 3, 4]).toContain(arity)
      expect(key.split(" ").length).toBeLessThanOrEqual(arity)
    }
  })
})

describe("BashArity.save", () => {
  const cases: ReadonlyArray<readonly [string, string | undefined]> = [
    ["rm -rf x", "rm *"],
    ["rm", "rm *"],
    ["git status -s", "git status *"],
    ["git status", "git status *"],
    ["npm run test -- --watch", "npm run test *"],
    ["docker compose up", "docker compose up *"],
    ["cargo build", "cargo build *"],
    ["git", "git"],
    ["npm run", "npm run"],
    ["git -C dir status", undefined],
    ["git --no-pager log", undefined],
    ["npm run -s test", undefined],
    ["ls -la", "ls *"],
    ["git push --force", "git push *"],
    ["\\rm x", undefined],
    ['"rm" x', undefined],
    ["git $SUB", undefined],
    ["git push|x", undefined],
    ["user@host:path/a.b_c%d+e=f,g-h x", "user@host:path/a.b_c%d+e=f,g-h *"],
  ]
  for (const [command, save] of cases) it(`saves ${command} as ${String(save)}`, () => expect(BashArity.save(words(command))).toBe(save))

  it("saves nothing for no words", () => expect(BashArity.save([])).toBeUndefined())
})

describe("BashArity.pattern", () => {
  it("keeps the given number of words then a star", () => expect(BashArity.pattern(["sudo", "-u", "root", "rm", "x"], 4)).toBe("sudo -u root rm *"))
  it("keeps every word exactly, with no star, when there are fewer", () => expect(BashArity.pattern(["sudo", "-i"], 3)).toBe("sudo -i"))
  it("gives nothing when a kept word is not plain", () => expect(BashArity.pattern(["sudo", "'rm'", "x"], 2)).toBeUndefined())
  it("ignores words past the kept ones", () => expect(BashArity.pattern(["rm", "$(x)"], 1)).toBe("rm *"))
})
