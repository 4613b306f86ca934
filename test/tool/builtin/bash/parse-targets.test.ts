import { describe, expect, it } from "@effect/vitest"
import { BashParsePlace } from "../../../../src/tool/builtin/bash/parse-place.js"
import type { BashCommand } from "../../../../src/tool/builtin/bash/command.js"
import { directory, file, HOME, normalized, parse } from "../../../lib/bash-gate.js"

const cases: ReadonlyArray<{ readonly name: string; readonly command: string; readonly targets: ReadonlyArray<BashCommand.Target> }> = [
  { name: "an absolute output file", command: "echo k > /tmp/out", targets: [file("/tmp/out")] },
  { name: "~/ expands to the home directory", command: "echo k >> ~/.ssh/authorized_keys", targets: [file(`${HOME}/.ssh/authorized_keys`)] },
  { name: "tee operands", command: "cat a | tee /etc/x", targets: [file("/etc/x")] },
  { name: "tee options are skipped, anywhere", command: "tee -a log1 --output-error=warn log2 < in", targets: [file("log1"), file("log2")] },
  { name: "cd then a relative write", command: "cd /etc && echo x > passwd", targets: [directory("/etc"), file("passwd", "/etc")] },
  { name: "cd .. then rm", command: "cd .. && rm -rf app2", targets: [directory(".."), file("app2", "..")] },
  { name: "2>&1 is not a file", command: "git status > out 2>&1", targets: [file("out")] },
  { name: "/dev/null is not a file", command: "echo > /dev/null", targets: [] },
  { name: "devices and descriptors", command: "echo >/dev/stdout 2>/dev/stderr 3>/dev/fd/3 >&2 <&0 >&-", targets: [] },
  { name: "a process substitution is not a file", command: "echo > >(cat)", targets: [] },
  { name: "a redirect after a list", command: "true && echo b > out", targets: [file("out")] },
  { name: ">& with a file name", command: "echo x >& file", targets: [file("file")] },
  { name: "&>, &>> and >|", command: "echo x &> all &>> app >| clob", targets: [file("all"), file("app"), file("clob")] },
  { name: "an input redirect is not a target", command: "sort < /etc/passwd", targets: [] },
  { name: "a cd that may fail: both places", command: "cd /etc; echo > passwd", targets: [directory("/etc"), file("passwd", "/etc"), file("passwd")] },
  { name: "a subshell keeps its cd", command: "(cd /x && echo > a); echo > b", targets: [directory("/x"), file("a", "/x"), file("b")] },
  { name: "a group does not", command: "{ cd /etc; } && echo > passwd", targets: [directory("/etc"), file("passwd", "/etc")] },
  { name: "a pipe keeps its cd", command: "cd /etc | cat && echo > f", targets: [directory("/etc"), file("f")] },
  { name: "a background cd moves nothing", command: "cd /etc & echo > f", targets: [directory("/etc"), file("f")] },
  { name: "|| runs where cd failed", command: "cd /etc || echo > a", targets: [directory("/etc"), file("a")] },
  { name: "if runs its body where the test succeeded", command: "if cd /etc; then echo > a; fi", targets: [directory("/etc"), file("a", "/etc")] },
  { name: "a cd that is not static", command: 'cd "$DIR" && echo > f', targets: [directory(undefined), file("f", undefined)] },
  { name: "an output that is not static", command: "echo x > $OUT", targets: [file(undefined)] },
  { name: "~user is not static", command: "echo > ~root/x", targets: [file(undefined)] },
  { name: "a quoted ~ is a name", command: 'echo > "~/x"', targets: [file("~/x")] },
  { name: "a glob is not static", command: "echo > *.txt", targets: [file(undefined)] },
  { name: "a command that sets HOME makes ~ unknown", command: "HOME=/etc; echo > ~/passwd", targets: [file(undefined)] },
  { name: "cd with no argument goes home", command: "cd && echo > f", targets: [directory(HOME), file("f", HOME)] },
  { name: "cd - goes somewhere unknown", command: "cd - && echo > f", targets: [directory(undefined), file("f", undefined)] },
  { name: "CDPATH makes a bare relative cd unknown", command: "CDPATH=/etc cd x && echo > y", targets: [directory(undefined), file("y", undefined)] },
  { name: "pushd and popd", command: "pushd /etc && echo > a && popd && echo > b", targets: [directory("/etc"), file("a", "/etc"), file("b")] },
  { name: "builtin cd moves the shell", command: "builtin cd /etc && echo > passwd", targets: [directory("/etc"), file("passwd", "/etc")] },
  { name: "sudo cd does not", command: "sudo cd /etc && echo > passwd", targets: [directory("/etc"), file("passwd")] },
  { name: "env -C moves the command it runs", command: "env -C /etc tee passwd", targets: [file("passwd", "/etc")] },
  { name: "find -execdir runs somewhere unknown", command: "find . -execdir tee f \\;", targets: [file("f", undefined)] },
  { name: "a wrapped tee", command: "sudo tee /etc/x > /dev/null", targets: [file("/etc/x")] },
  { name: "sh -c keeps its own cd", command: "sh -c 'cd /etc && echo > passwd'", targets: [directory("/etc"), file("passwd", "/etc")] },
  { name: "sh -c starts where the shell is", command: "cd /etc && sh -c 'echo > passwd'", targets: [directory("/etc"), file("passwd", "/etc")] },
  { name: "a substitution keeps its cd", command: "echo $(cd /etc && echo > a) > b", targets: [file("b"), directory("/etc"), file("a", "/etc")] },
  { name: "extra words after a destination are arguments", command: "echo > out x", targets: [file("out")] },
  { name: "exec redirects", command: "exec 3> /etc/x", targets: [file("/etc/x")] },
  { name: "a heredoc's line", command: "cat <<EOF > out\nbody\nEOF", targets: [file("out")] },
  { name: "a redirect on a loop", command: "for f in a; do echo $f; done > list", targets: [file("list")] },
]

describe("BashParse targets", () => {
  for (const c of cases) {
    it(`finds the targets of ${c.name}: ${JSON.stringify(c.command)}`, () => expect(normalized(parse(c.command).targets)).toEqual(normalized(c.targets)))
  }

  it("makes a later target unknown after a cd in a loop", () => {
    const targets = parse("for d in a b; do cd $d; done; echo > f").targets.filter((target) => target.path === "f")
    expect(targets.map((target) => target.cwd)).toContainEqual([])
    expect(targets.every((target) => target.cwd.length === 0 || target.cwd.includes(undefined))).toBe(true)
  })

  it("makes a later target unknown after calling a function that may cd", () => {
    // `f` may also make links (BashParseLink): the target's own path is unknowable too.
    const targets = parse("f() { cd /etc; }; f; echo > passwd").targets.filter((target) => target.kind === "file")
    expect(targets).toEqual([{ kind: "file", path: undefined, cwd: [] }, { kind: "file", path: undefined, cwd: [undefined] }])
  })

  it("collapses too many possible places into the unknown place", () => {
    const targets = parse(`${Array.from({ length: 12 }, (_, n) => `cd d${n}; `).join("")}echo > f`).targets.filter((target) => target.kind === "file")
    expect(targets.length).toBeLessThanOrEqual(BashParsePlace.MAX_PLACES)
    expect(targets.every((target) => target.cwd[0] === undefined)).toBe(true)
  })

  it("still reports the targets of opaque input", () => {
    const parsed = parse('eval "$X" > /etc/out')
    expect(parsed.opaque).toBe(true)
    expect(normalized(parsed.targets)).toEqual([file("/etc/out")])
  })
})

describe("BashParse absolute paths", () => {
  const cases: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
    ['ls /etc ~/x ~root/y "/tmp/a b" /dev/null', ["/etc", `${HOME}/x`, "/tmp/a b"]],
    ["cat < /etc/passwd", ["/etc/passwd"]],
    ["cp a /etc/x && echo > /etc/x", []],
    ["cd /etc && tee /var/x", []],
    ["/bin/ls relative", []],
    ["sudo /usr/bin/rm /etc/x", []],
    ["ls /{a,b} /*", ["/a", "/b"]],
    ["sh -c 'ls /root'", ["/root"]],
    ["ls /a /a", ["/a"]],
  ]
  for (const [command, paths] of cases) it(`lists ${JSON.stringify(paths)} for ${command}`, () => expect(parse(command).absolutePaths).toEqual(paths))
})
