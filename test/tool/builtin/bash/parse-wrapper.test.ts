import { describe, expect, it } from "@effect/vitest"
import { PermissionEvaluate } from "../../../../src/permission/evaluate.js"
import type { PermissionRule } from "../../../../src/permission/rule.js"
import { BashParse } from "../../../../src/tool/builtin/bash/parse.js"
import { BashParseOption } from "../../../../src/tool/builtin/bash/parse-option.js"
import { BashParseWrapper } from "../../../../src/tool/builtin/bash/parse-wrapper.js"
import { WRAPPER_RULES, WRAPPERS } from "../../../lib/bash-tables.js"

const parser = await BashParse.load()
const rule = (action: string, resource: string, effect: PermissionRule.Effect): PermissionRule.Sourced => ({ action, resource, effect, source: { kind: "builtin", agent: "test" } })

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
  // A startup file runs before the string, and an interactive shell expands aliases in it.
  const startup: ReadonlyArray<readonly [string, boolean]> = [
    ["bash --rcfile x.sh -i -c y", true],
    ["bash --init-file x.sh -c y", true],
    ["bash --rcfile x.sh -ic y", true],
    ["bash -i -c y", true],
    ["sh -i -c y", true],
    ["bash -ic y", true],
    ["bash -lc y", false],
    ["bash +i -c y", false],
    ["bash -c y", false],
    ["bash -O extglob -c y", false],
  ]
  for (const runner of ["unbuffer", "faketime 2020-01-01", "proxychains", "torsocks", "firejail", "cgexec -g cpu:x", "numactl -N 0", "catchsegv", "xvfb-run -a", "pkexec", "dbus-launch", "nocache", "trickle -d 10", "flatpak-spawn --host", "bwrap --bind / /"])
    it(`makes a runner no table reads opaque: ${runner}`, () => expect(unwrap(`${runner} rm x`)?.opaque).toBe(true))
  for (const [command, opaque] of startup) it(`${opaque ? "makes" : "does not make"} a shell that reads a startup file or runs interactive opaque: ${command}`, () => expect(unwrap(command)?.opaque).toBe(opaque))
  it("makes too many option readings opaque", () => expect(unwrap(`sudo ${"-Z ".repeat(BashParseOption.MAX_READINGS)}rm x`)?.opaque).toBe(true))
  it("makes too many option steps opaque", () => expect(unwrap(`sudo ${"-n ".repeat(BashParseOption.MAX_STEPS)}rm x`)?.opaque).toBe(true))
})

describe("BashParseWrapper.unwrap: launchers", () => {
  const cases: ReadonlyArray<readonly [string, ReadonlyArray<number> | undefined]> = [
    ["runuser -u root -- rm x", [4]],
    ["runuser -u root rm -rf x", [3]],
    ["ssh-agent -a sock rm x", [3]],
    ["setarch x86_64 -R rm x", [3]],
    ["linux64 rm x", [1]],
    ["choom -n 5 -- rm x", [4]],
    ["uclampset -m 10 -M 20 rm x", [5]],
    ["runcon ctx rm x", [2]],
    ["runcon -t type rm x", [3]],
    ["dbus-run-session --config-file=f -- rm x", [3]],
    ["fakeroot -u -- rm x", [3]],
    ["eatmydata rm x", [1]],
    ["valgrind --tool=memcheck -q rm x", [3]],
    ["gdb -q --args rm x", [3]],
    ["perf stat -e cycles -- rm x", [5]],
    ["perf record -a rm x", [3]],
    ["chronic -e rm x", [2]],
    ["screen -dmS name rm x", [3]],
    ["npx --yes rm x", [2]],
    // npx's own options end at the command: `-c` here is prettier's.
    ["npx prettier --check -c .", [1]],
    ["npm exec -- rm x", [3]],
    ["npm --silent exec rm x", [3]],
    ["pnpm exec rm x", [2]],
    ["pnpm -C pkg dlx rm x", [4]],
    ["yarn dlx rm x", [2]],
    ["bunx rm x", [1]],
    ["bun x rm x", [2]],
    ["uv run --with pkg rm x", [4]],
    ["uv tool run rm x", [3]],
    ["uvx --from pkg rm x", [3]],
    ["poetry run rm x", [2]],
    ["pipenv run rm x", [2]],
    ["bundle exec rm x", [2]],
    ["npm run test", undefined],
    ["perf report", undefined],
  ]
  for (const [command, expected] of cases) it(`finds the command run by ${command}`, () => expect(starts(command)).toEqual(expected))

  const strings: ReadonlyArray<readonly [string, ReadonlyArray<string | undefined>]> = [
    ["script -q /dev/null -c x", ["x"]],
    ["script log --command=x", ["x"]],
    ["sg wheel -c x", ["x"]],
    ["sg wheel x", ["x"]],
    ["tmux new-session -d -s name x", ["x"]],
    ["tmux new x", ["x"]],
    ["tmux -L sock split-window -h x ; neww y", ["x", "y"]],
    ["tmux ls", []],
    ["yarn exec rm x", ["rm x"]],
  ]
  for (const [command, expected] of strings) it(`finds the command strings run by ${command}`, () => expect(unwrap(command)?.strings ?? []).toEqual(expected))

  it("gives an unknown option of su both readings, past the user", () => expect(new Set(unwrap("su --odd x root -c y")?.strings)).toEqual(new Set(["y"])))
  it("reads npx's options only before the command, npm exec's anywhere", () => {
    expect(unwrap("npx prettier -c .")?.opaque).toBe(false)
    expect(unwrap("npm exec prettier -c .")?.opaque).toBe(true)
  })
  it("reads gdb's commands from standard input", () => expect(unwrap("gdb --args rm x")?.stdin).toBe(true))
  it("starts a shell with setarch and no command", () => expect(unwrap("setarch x86_64")?.stdin).toBe(true))
  it("runs uv run --directory in its directory", () => expect(unwrap("uv run --directory /etc tee f")?.inner).toEqual([{ start: 4, end: 6, cwd: ["/etc"] }]))
})

describe("BashParse wrappers: the command they run is judged", () => {
  const decide = (command: string) => {
    const parsed = parser.parse(command, { home: "/home/me" })
    const resources = parsed.resources.map((resource) => resource.text)
    return { parsed, effect: PermissionEvaluate.evaluateInput({ action: "bash", resources, configured: WRAPPER_RULES, session: [], saved: [], opaque: parsed.opaque }).effect }
  }
  for (const [command, effect] of WRAPPERS) {
    it(`${effect === "deny" ? "surfaces rm in" : "makes opaque"} ${JSON.stringify(command)}`, () => {
      const { parsed, effect: found } = decide(command)
      expect(found).toBe(effect)
      expect(parsed.opaque).toBe(effect === "ask")
    })
  }
})

describe("BashParse wrappers: saves", () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ["yarn exec rm x", "yarn exec *"],
    ["npx rm x", "npx rm *"],
    ["tmux new 'rm x'", "tmux new *"],
    ["runuser -u root -- rm x", "runuser -u root -- rm *"],
    ["script -q /dev/null -c 'rm x'", "script -q /dev/null -c *"],
  ]
  for (const [command, save] of cases) it(`saves ${JSON.stringify(command)} as ${save}, never broader`, () => expect(parser.parse(command, { home: "/home/me" }).resources[0]?.save).toBe(save))
})

describe("BashParseWrapper.unwrap: wrappers that move the command or its root", () => {
  const chdirs: ReadonlyArray<readonly [string, ReadonlyArray<string | undefined>]> = [
    ["unshare -w .git tee config", [".git"]],
    ["unshare --wd=.git tee config", [".git"]],
    ["unshare --wd .git tee config", [".git"]],
    ["nsenter -t 1 -w.git tee config", [".git"]],
    ["nsenter --wd=.git -t 1 tee config", [".git"]],
    ["systemd-run --working-directory=.git tee config", [".git"]],
  ]
  for (const [command, cwd] of chdirs) {
    it(`runs ${JSON.stringify(command)} in ${JSON.stringify(cwd)}`, () => {
      const layer = unwrap(command)
      expect([layer?.opaque, layer?.inner.map((inner) => inner.cwd)]).toEqual([false, [cwd]])
    })
  }

  const opaque = [
    ...["unshare -R /x tee config", "unshare --root=/x tee config", "nsenter -t 1 -w tee config", "nsenter --wd -t 1 tee config", "nsenter -r -t 1 tee config"],
    ...["nsenter --root=/x -t 1 tee config", "nsenter -m -t 1 tee config", "nsenter -a -t 1 tee config", "chroot / tee config", "chroot --skip-chdir / tee config"],
    ...["su - root -c x", "su -l root -c x", "su --login root -c x", "runuser -l root -c x", "runuser - root -c x", "sudo -i tee x", "sudo --login tee x"],
    ...["sudo -R /x tee config", "sudo --chroot=/x tee config", "systemd-run tee config", "systemd-run --scope tee config", "systemd-run -d -p RootDirectory=/x tee config"],
  ]
  for (const command of opaque) it(`makes ${JSON.stringify(command)} opaque`, () => expect(unwrap(command)?.opaque).toBe(true))

  it("still reads su, runuser, nsenter and systemd-run that do not move the command", () => {
    expect(unwrap("su root -c x")?.opaque).toBe(false)
    expect(unwrap("systemd-run -d tee config")?.opaque).toBe(false)
    expect(unwrap("runuser -u root -- rm x")?.opaque).toBe(false)
    expect(unwrap("nsenter -t 1 -n rm x")?.inner).toEqual([{ start: 4, end: 6, cwd: [] }])
    // `-T`'s argument is optional and attached: `rm` is the command, not its argument.
    expect(unwrap("nsenter -t 1 -T rm x")?.inner).toEqual([{ start: 4, end: 6, cwd: [] }])
  })
})

describe("BashParse: commands that change what paths mean", () => {
  const rules = [rule("bash", "*", "allow")]
  for (const command of ["mount --bind /outside m", "sudo mount -o bind /x m", "umount m", "pivot_root new old", "losetup -f img", "fusermount -u m", "bindfs /outside m", "sshfs h:/ m", "mount.fuse x m"]) {
    it(`makes ${JSON.stringify(command)} opaque, so a wildcard allow asks`, () => {
      const parsed = parser.parse(command, { home: "/home/me" })
      const resources = parsed.resources.map((resource) => resource.text)
      expect([parsed.opaque, PermissionEvaluate.evaluateInput({ action: "bash", resources, configured: rules, session: [], saved: [], opaque: parsed.opaque }).effect]).toEqual([true, "ask"])
    })
  }
})

describe("BashParse: the review's wrapper reproductions target the directory they land in", () => {
  it("judges `unshare -w .git tee config` as a write of .git/config", () => {
    const parsed = parser.parse("unshare -w .git tee config", { home: "/home/me" })
    expect(parsed.targets.map((target) => [target.path, target.cwd])).toEqual([["config", [".git"]]])
  })
})
