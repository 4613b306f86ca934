import { describe, expect, it } from "@effect/vitest"
import { BashParseOption } from "../../../../src/tool/builtin/bash/parse-option.js"
import { BashParseWrapper } from "../../../../src/tool/builtin/bash/parse-wrapper.js"

const unwrap = (command: string) => {
  const words = command.split(" ").map((word) => (word === "$X" ? undefined : word))
  return BashParseWrapper.unwrap(words, 0, words.length)
}
const starts = (command: string) => unwrap(command)?.inner.map((inner) => inner.start)

describe("BashParseWrapper.unwrap", () => {
  const cases: ReadonlyArray<readonly [string, ReadonlyArray<number> | undefined]> = [
    ["rm -rf x", undefined],
    ["sudo rm x", [1]],
    ["sudo -u root -g wheel rm x", [5]],
    ["sudo -nu root rm x", [3]],
    ["sudo --user=root rm x", [2]],
    ["sudo --user root rm x", [3]],
    ["sudo -- rm x", [2]],
    ["sudo A=1 B=2 rm x", [3]],
    ["sudo -e /etc/hosts", []],
    ["sudo -l", []],
    ["env -i -u HOME A=b rm x", [5]],
    ["env - rm x", [2]],
    ["timeout 5 rm x", [2]],
    ["timeout -s KILL -k 10 5 rm x", [6]],
    ["timeout --preserve-status 5 rm x", [3]],
    ["nice -n 5 rm x", [3]],
    ["nice -5 rm x", [2]],
    ["nice --adjustment=5 rm x", [2]],
    ["ionice -c 3 -n 7 rm x", [5]],
    ["stdbuf -oL -e0 rm x", [3]],
    ["stdbuf -o L rm x", [3]],
    ["command -p rm x", [2]],
    ["command -v rm", []],
    ["command -pv rm", []],
    ["exec -a name rm x", [3]],
    ["xargs -0 -n1 -P4 rm", [4]],
    ["xargs -I {} rm {}", [3]],
    ["xargs -i{} rm {}", [2]],
    ["xargs --max-args 2 rm", [3]],
    ["xargs", []],
    ["setsid -f rm x", [2]],
    ["watch -x -n 1 rm x", [4]],
    ["time -p rm x", [2]],
    ["nohup rm x", [1]],
    ["busybox rm x", [1]],
    ["find . -exec rm {} ; -o -execdir cat {} +", [3, 8]],
    ["find . -name x", []],
    ["sudo --odd x rm y", [2, 3]],
    ["sudo -Z x rm y", [2, 3]],
    ["sudo $X rm x", [1]],
    // GNU env takes any word with `=` for an assignment; both readings are kept.
    ["env A%%=b rm x", [1, 2]],
  ]
  for (const [command, expected] of cases) it(`finds the command run by ${command}`, () => expect(starts(command)).toEqual(expected))

  it("ends a find -exec command at its terminator", () => expect(unwrap("find . -exec rm {} ; -print")?.inner).toEqual([{ start: 3, end: 5, cwd: [] }]))
  it("runs -execdir somewhere unknown", () => expect(unwrap("find . -execdir rm {} +")?.inner[0]?.cwd).toEqual([undefined]))
  it("runs env -C in its directory", () => expect(unwrap("env -C /etc tee x")?.inner).toEqual([{ start: 3, end: 5, cwd: ["/etc"] }]))
  it("runs sudo --chdir in its directory", () => expect(unwrap("sudo --chdir=/etc tee x")?.inner[0]?.cwd).toEqual(["/etc"]))

  const strings: ReadonlyArray<readonly [string, ReadonlyArray<string | undefined>, number | "inner" | "own"]> = [
    ["sh -c x", ["x"], 2],
    ["bash -lc x", ["x"], 2],
    ["bash -c -e x", ["x"], 3],
    ["bash -o pipefail -c x", ["x"], 4],
    ["bash --norc -c x", ["x"], 3],
    ["bash -c $X", [undefined], 2],
    ["bash -c", [undefined], "inner"],
    ["bash script.sh", [], "own"],
    ["su -c x root", ["x"], 2],
    ["su root -c x", ["x"], 3],
    ["su --command=x", ["x"], 1],
    ["watch -n 1 ls -la", ["ls -la"], 3],
    ["trap x EXIT", ["x"], 1],
    ["trap EXIT", [], "inner"],
    ["trap - EXIT", [], "inner"],
    ["trap -p", [], "inner"],
    ["alias a=x b=y", ["x", "y"], 1],
    ["mapfile -t -C x lines", ["x"], 3],
  ]
  for (const [command, expected, keep] of strings) {
    it(`finds the command strings run by ${command}`, () => {
      const layer = unwrap(command)
      expect(layer?.strings).toEqual(expected)
      expect(layer?.keep).toEqual(keep)
    })
  }

  const stdin: ReadonlyArray<readonly [string, boolean]> = [
    ["bash", true],
    ["bash -s x", true],
    ["sh -", true],
    ["bash script.sh", false],
    ["bash -c x", false],
    ["sudo -s", true],
    ["sudo -s rm x", false],
    ["su root", true],
    ["script -q log", true],
  ]
  for (const [command, reads] of stdin) it(`${reads ? "reads" : "does not read"} commands from standard input: ${command}`, () => expect(unwrap(command)?.stdin).toBe(reads))

  const fills: ReadonlyArray<readonly [string, BashParseWrapper.Fills | undefined]> = [
    ["xargs rm", { token: undefined, append: true }],
    ["xargs -0 -n 1 rm", { token: undefined, append: true }],
    ["xargs -I X rm X", { token: "X", append: false }],
    ["xargs -0IR rm R", { token: "R", append: false }],
    ["xargs -i rm {}", { token: "{}", append: false }],
    ["xargs -i% rm %", { token: "%", append: false }],
    ["xargs --replace rm {}", { token: "{}", append: false }],
    ["xargs --repl=Q rm Q", { token: "Q", append: false }],
    ["find . -exec rm {} ;", { token: "{}", append: false }],
    ["sudo rm x", undefined],
  ]
  for (const [command, expected] of fills) it(`finds what ${command} fills in at run time`, () => expect(unwrap(command)?.fills).toEqual(expected))

  it("makes an xargs replacement string that is not static opaque", () => expect(unwrap("xargs -I $X rm x")?.opaque).toBe(true))
  it("makes env -S opaque", () => expect(unwrap("env -S x")?.opaque).toBe(true))
  it("makes too many option readings opaque", () => expect(unwrap(`sudo ${"-Z ".repeat(BashParseOption.MAX_READINGS)}rm x`)?.opaque).toBe(true))
  it("makes too many option steps opaque", () => expect(unwrap(`sudo ${"-n ".repeat(BashParseOption.MAX_STEPS)}rm x`)?.opaque).toBe(true))
})
