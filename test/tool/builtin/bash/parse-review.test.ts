import { describe, expect, it } from "@effect/vitest"
import { PermissionEvaluate } from "../../../../src/permission/evaluate.js"
import type { PermissionRule } from "../../../../src/permission/rule.js"
import { BashParse } from "../../../../src/tool/builtin/bash/parse.js"

const parser = await BashParse.load()
const parse = (command: string) => parser.parse(command, { home: "/home/me" })

const rule = (action: string, resource: string, effect: PermissionRule.Effect): PermissionRule.Sourced => ({ action, resource, effect, source: { kind: "builtin", agent: "test" } })

/** The rules of parse-bypass.test.ts: allow everything except rm and curl (deny) and git push (ask). */
const denyRules = [rule("*", "*", "allow"), rule("bash", "rm *", "deny"), rule("bash", "git push *", "ask"), rule("bash", "curl *", "deny")]

/** Ask for everything but commands that look harmless: none of them may carry a hidden command. */
const HARMLESS = ["echo", "cat", "test", "printf", "set", "ls", "git", "find", "xargs", "env", "time", "true", "read", "declare", "hash", "shopt", "pushd", "popd", "cd", "sh", "bash", "nohup", "npm"]
const askRules = [rule("bash", "*", "ask"), ...HARMLESS.map((name) => rule("bash", `${name} *`, "allow"))]

const effect = (command: string, rules: ReadonlyArray<PermissionRule.Sourced>) => {
  const parsed = parse(command)
  const resources = parsed.resources.map((resource) => resource.text)
  return PermissionEvaluate.evaluateInput({ action: "bash", resources, configured: rules, session: [], saved: [], opaque: parsed.opaque }).effect
}

/** The security review's findings (verified on bash 5.2), and more of each family found while fixing them. */
const findings: ReadonlyArray<{ readonly finding: string; readonly commands: ReadonlyArray<string> }> = [
  {
    finding: "1: substitutions tree-sitter-bash hides",
    commands: [
      "cat <<EOF > notes.md\n  $(rm -rf ~)\nEOF",
      "cat <<EOF\n`rm -rf ~`\nEOF",
      "cat <<-EOF\n\t$(rm -rf ~)\n\tEOF",
      "cat <<EOF\n\\`rm -rf ~\\`\nEOF",
      "cat <<'EOF'\n EOF\nrm -rf ~\nEOF",
      'echo "${x:-`rm -rf ~`}"',
      "echo \"${x:-'$(rm -rf ~)'}\"",
      "a=(1); echo ${a['$(rm -rf ~)']}",
      "[[ $x =~ `rm -rf ~` ]]",
      "echo $((`rm -rf ~`))",
      "echo x > ${y:-`rm -rf ~`}",
    ],
  },
  {
    finding: "2: strings stored in variables run later as code",
    commands: [
      "x='$(rm -rf ~)'; echo \"${x@P}\"",
      "x='a[$(rm -rf ~)]'; ((x)); echo done",
      "x='a[$(rm -rf ~)]'; echo ${a[x]}",
      "test -v 'a[$(rm -rf ~)]'",
      "printf -v 'a[$(rm -rf ~)]' %s x",
      "PS4='$(rm -rf ~)'; set -x; echo hi",
      "read 'a[$(rm -rf ~)]'",
      "declare 'a[$(rm -rf ~)]=1'",
      "echo ${!x}",
      "x='a[$(rm -rf ~)]'; [[ $x -eq 0 ]]",
      "[[ $x -eq 0 ]]",
      // The value can come from anywhere (a file, `$'\x24('`): the evaluating place is what counts.
      "read -r x < f; ((x))",
      "x=$(cat f); echo $(( x + 1 ))",
      "x=$(cat f); s=abc; echo ${s:x}",
      "x=$(cat f); a=(); a[x]=1",
      "x=$(cat f); declare -i n=$x",
      "n=$(cat f); test -v \"$n\"",
      "o=-v; n=$(cat f); [ \"$o\" \"$n\" ]",
      "arr=(1); v=$(cat f); declare arr=\"$v\"",
      "wait -p 'a[$(rm -rf ~)]' -n",
      "mapfile -t 'a[$(rm -rf ~)]' < f",
      "unset 'a[$(rm -rf ~)]'",
      "n=$(cat f); builtin declare \"$n=1\"",
      "sh -c 'printf -v \"$1\" x' _ 'a[$(rm -rf ~)]'",
      "set -o xtrace; echo hi",
      "IFS=/; echo $x",
      "env 'BASH_ENV=/tmp/e' bash s.sh",
      "PROMPT_COMMAND='rm -rf ~' bash -i",
    ],
  },
  {
    finding: "3: directory tracking escapes",
    commands: [
      "shopt -s cdable_vars; x=/etc; cd x && echo pwned > passwd",
      "printf -v CD''PATH %s /; cd etc && echo x > passwd",
      "pushd . && DIRSTACK[1]=/etc && popd && echo x > passwd",
      "printf -v HO''ME %s /etc; echo x > ~/passwd",
      "read OLD''PWD < f; cd - && echo x > passwd",
    ],
  },
  {
    finding: "4: time and coproc before a compound command",
    commands: [
      "time if true; then rm -rf ~; fi",
      "time { rm x; }",
      "time while true; do rm x; done",
      "coproc { rm -rf x; }",
      "coproc w while true; do rm -rf x; done",
      "time -p if true; then rm -rf ~; fi",
      "nohup if true; then rm -rf ~; fi",
    ],
  },
  {
    finding: "5: command strings and commands find and xargs complete at run time",
    commands: [
      "find . -exec sh -c {} \\;",
      "echo x | xargs -I CMD sh -c CMD",
      "echo \"'rm -rf ~'\" | xargs bash -c",
      "find . -exec sh -c 'echo {}' \\;",
      "find . -exec {} \\;",
      "ls | xargs -I{} sh -c 'cat {}'",
      "echo push | xargs git",
      "echo rm | xargs env",
      "echo -exec | xargs -I X find . X rm -rf ~ \\;",
      "ls | xargs sh",
    ],
  },
  {
    finding: "6: functions, aliases and hashed paths",
    commands: [
      "env 'BASH_FUNC_git%%=() { rm -rf ~; }' bash -c 'git status'",
      "hash -p /bin/rm ls; ls -rf y",
      "shopt -s expand_aliases; alias ls='rm -rf'; ls ~",
      "bash -O expand_aliases -c 'alias g=\"git \"\ng push'",
      "alias g='git '; g push",
    ],
  },
  {
    finding: "7: a dynamic sub-command",
    commands: ["git $'push' origin main", "X=push; git $X origin", "git $(echo push) origin", "git ${X} origin", "npm run $S"],
  },
  { finding: "8: zsh's =cmd", commands: ["=rm -rf ~"] },
  {
    finding: "second review 1–2: what a name runs (BASH_CMDS, PATH, POSIX mode with BASH_ALIASES)",
    commands: [
      "BASH_CMDS=(cat /usr/bin/rm); cat -rf x",
      "PATH=dir; cat x",
      'export PATH="$HOME/bin:$PATH"; git status',
      "set -o posix; BASH_ALIASES=(echo 'rm -rf x')\necho hi",
      "POSIXLY_CORRECT=1; BASH_ALIASES=(echo 'rm -rf x')\necho hi",
    ],
  },
  { finding: "second review 4: abbreviated long options", commands: ["env --split-str='rm -rf x'", "script -q --comm='rm -rf x' /dev/null"] },
  {
    finding: "second review 5: programs that run configuration as code",
    commands: ["git -c alias.p=push p origin main", "git -c alias.x='!rm -rf y' x", "git -c core.pager='rm x' log", "git --config-env=core.pager=P log", "GIT_PAGER='rm x' git log", "PAGER='rm x' git log"],
  },
  { finding: "second review 6: programs that run their words", commands: ["jobs -x rm -rf x", "flock L rm x", "flock -n L -c 'rm x'", "taskset -c 0 rm x", "chrt -o 0 rm x", "unshare rm x", "prlimit rm x", "chroot / rm x", "strace -f rm x"] },
]

describe("BashParse review findings", () => {
  for (const { finding, commands } of findings) {
    describe(finding, () => {
      for (const command of commands) {
        it(`stops ${JSON.stringify(command)}`, () => {
          expect(["deny", "ask"]).toContain(effect(command, denyRules))
          expect(effect(command, askRules)).not.toBe("allow")
        })
      }
    })
  }

  it("leaves no write of finding 3 at a known place", () => {
    for (const command of findings[2]?.commands ?? []) {
      const files = parse(command).targets.filter((target) => target.kind === "file")
      expect(files.length).toBeGreaterThan(0)
      expect(files.every((target) => target.path === undefined || target.cwd.includes(undefined))).toBe(true)
    }
  })

  it("reads an abbreviated long option as the option it abbreviates (env --chd is --chdir)", () => {
    expect(parse("env --chd=/outside tee f").targets).toEqual([{ kind: "file", path: "f", cwd: ["/outside"] }])
    expect(parse("env --chd=/outside sh -c 'echo x > f'").targets).toEqual([{ kind: "file", path: "f", cwd: ["/outside"] }])
  })

  it("keeps git's own options readable when they configure nothing", () => {
    expect(parse("git commit -m 'fix -c option'").opaque).toBe(false)
    expect(parse("git --no-pager log --oneline").opaque).toBe(false)
  })

  it("makes a loop with a quoted cd start somewhere unknown", () => {
    expect(parse("for i in 1 2; do echo x > passwd; c''d /etc; done").targets.filter((target) => target.path === "passwd").map((target) => target.cwd)).toContainEqual([undefined])
  })
})

/** Everyday commands the checks must leave readable (not opaque). */
const everyday = [
  'git commit -m "Fix \\`parse\\` and \\$(x)"',
  "git commit -m 'Use $(x) and `y` here'",
  "git commit -m \"$(cat <<'EOF'\nFix `x` and $(y)\n\nMore text\nEOF\n)\"",
  "cat > script.sh <<'EOF'\n#!/bin/bash\nx=$(date)\necho `pwd`\nEOF",
  "cat <<EOF > out\nhello $USER \\$(literal)\nEOF",
  'while IFS= read -r line; do echo "$line"; done < file.txt',
  'cd "$HOME/project" && ls',
  'for f in *.ts; do wc -l "$f"; done',
  'if [ -f "$x" ]; then echo yes; fi',
  '[ ! -f "$x" ] || [ "$a" = "$b" ] && echo same',
  "test -d node_modules || npm ci",
  "[[ -n $CI && 1 -eq 1 ]] || echo local",
  "make -j$(nproc)",
  "find . -type f -exec sh -c 'wc -l \"$1\"' _ {} \\;",
  "find . -name '*.ts' -exec grep -l '$(' {} +",
  "ls | xargs -I{} echo {}",
  "ls | xargs git add",
  "echo ${#arr[@]} ${arr[0]} ${x:1:2} ${x: -1} ${x:-y}",
  "echo $((1 + 2))",
  "set -euo pipefail; npm test",
  "sleep 1 & wait $!",
  'printf "%s\\n" "$x"',
  "printf -v out '%s' y",
  "read -r -p 'ok? ' answer",
  "local_x=1; echo $local_x",
  "time npm test",
  "diff <(ls a) <(ls b)",
  'x=$(git rev-parse HEAD); echo "$x"',
  'docker run --rm -v "$PWD":/app node npm test',
  "pushd /tmp && ls && popd",
]

describe("BashParse after the review", () => {
  for (const command of everyday) it(`still reads ${JSON.stringify(command.slice(0, 60))}`, () => expect(parse(command).opaque).toBe(false))
})
