/**
 * A trap or mapfile's callback is a string the shell runs later, in itself: a `cd` in it moves
 * every command after it at a point the line does not show (`trap 'cd .git' DEBUG` runs before
 * each command), and its own writes may run after any later move. Real bash wrote `.git/config`
 * through each of these unasked; test/tool/builtin/bash-protected-oracle.test.ts (`LATER`) runs them.
 */
import { describe, expect, it } from "vitest"
import { directory, file, normalized, parse } from "../../../lib/bash-gate.js"

const targets = (command: string) => normalized(parse(command).targets)

describe("strings the shell runs later", () => {
  it("leaves every later command somewhere unknown after a trap or callback that moves", () => {
    expect(targets("trap 'cd .git' DEBUG; echo x >> config")).toEqual([directory(".git"), directory(".git", undefined), file("config"), file("config", undefined)])
    expect(targets("trap 'cd .git' ERR; false; echo x >> config")).toContainEqual(file("config", undefined))
    expect(targets("mapfile -C 'cd .git;:' -c 1 a <<< x; echo x > config")).toContainEqual(file("config", undefined))
  })

  it("judges a trap's own writes from anywhere once the line moves", () => expect(targets("cd sub; trap 'echo x > config' DEBUG; cd ../.git; true")).toContainEqual(file("config", "sub", undefined)))

  it("leaves lines whose traps do not move, in lines that do not move, as they were", () => {
    expect(targets("trap 'echo hi' EXIT; echo x > y")).toEqual([file("y")])
    expect(targets("trap 'rm -f t' EXIT; echo x > y")).toEqual([file("t"), file("y")])
  })
})
