/**
 * Known reproductions, run before any generated line: each hides a payload (`touch …`, `rm`, a
 * write through `/dev/fd`) where a reader of bash syntax once missed it. A few are controls that
 * bash never runs (`echo a\t#; …`): they pass whatever the gate says. Lines use only relative
 * paths and `/dev` names, so they are the same in every sandbox.
 */
export * as BashFuzzCorpus from "./corpus.js"

export interface Seed {
  readonly family: string
  readonly line: string
}

const PWNED = "touch ../outside/PWNED"
const CANARY = "touch CANARY"

/** The reproductions given with the task, with T = `touch ../outside/PWNED`. */
export const GIVEN: ReadonlyArray<Seed> = [
  { family: "backquote", line: `echo \`echo \\\`${PWNED}\\\`\`` },
  { family: "backquote", line: `echo "\`echo \\\`${PWNED}\\\`\`"` },
  { family: "backquote", line: `git status \`echo \\\`${PWNED}\\\`\`` },
  { family: "newline", line: `echo a\n\\\n${PWNED}` },
  { family: "newline", line: `echo a\n\\${PWNED}` },
  { family: "newline", line: `(echo a\n\\\n${PWNED})` },
  { family: "newline", line: `sh -c 'echo a\n\\\n${PWNED}'` },
  { family: "newline", line: `echo a\\\r\n${PWNED}` },
  { family: "control", line: `echo a\r#; ${PWNED}` },
  { family: "control", line: `echo a\u000b#; ${PWNED}` },
  { family: "control", line: `echo a\f#; ${PWNED}` },
  { family: "control", line: "echo a <\r\nrm -f victim" },
  { family: "comment", line: `echo 'a'#\\\n\n${PWNED}` },
  { family: "comment", line: `echo $(echo a)#\\\n\n${PWNED}` },
  { family: "fd", line: "echo pwned 3<../outside/victim >/dev/fd/3" },
  { family: "fd", line: "{ echo x >/dev/fd/3; } 3<../outside/victim" },
  { family: "fd", line: "echo x <../outside/victim >/dev/stdin" },
]

/** More of the same families. */
export const OWN: ReadonlyArray<Seed> = [
  { family: "control", line: `echo a\u0001#; ${CANARY}` },
  { family: "control", line: `echo a\u001b#; ${CANARY}` },
  { family: "control", line: `echo a\u00a0#; ${CANARY}` },
  { family: "control", line: `echo a\t#; ${CANARY}` },
  { family: "control", line: `echo a 2>\r\n${CANARY}` },
  { family: "newline", line: `{ echo a\n\\\n${CANARY}; }` },
  { family: "newline", line: `echo $(echo a\n\\\n${CANARY})` },
  { family: "newline", line: `echo a\\\r\n\\\n${CANARY}` },
  { family: "newline", line: `\\\n${CANARY}` },
  { family: "comment", line: `echo "a"#\\\n\n${CANARY}` },
  { family: "comment", line: `echo \${x}#\\\n\n${CANARY}` },
  { family: "comment", line: `echo $((1))#\\\n\n${CANARY}` },
  { family: "backquote", line: `echo \`echo '\`; ${CANARY} \`'\`` },
  { family: "backquote", line: `echo "\`echo \\"\\\`${CANARY}\\\`\\"\`"` },
  { family: "heredoc", line: `cat <<EOF\n $(${CANARY})\nEOF` },
  { family: "heredoc", line: `cat <<-EOF\n\t\`${CANARY}\`\n\tEOF` },
  { family: "heredoc", line: `cat <<E\\OF\nEOF\n${CANARY}\nEOF` },
  { family: "heredoc", line: `cat <<E"O"F\nEOF\n${CANARY}\nE"O"F` },
  { family: "herestring", line: `cat <<<"\${x:-'$(${CANARY})'}"` },
  { family: "param", line: `echo "\${x:-'$(${CANARY})'}"` },
  { family: "param", line: `echo \${x:-'$(${CANARY})'}` },
  { family: "fd", line: "echo x 1<>../outside/victim" },
  { family: "fd", line: "echo x <>../outside/victim >&0" },
  { family: "fd", line: "echo x >&../outside/victim" },
  { family: "fd", line: "( echo x >/dev/fd/3 ) 3<../outside/victim" },
  { family: "fd", line: "echo x 3<>../outside/victim >&3" },
  { family: "fd", line: "cat a.txt 0<../outside/victim >/dev/fd/0" },
  { family: "fd", line: "echo x > link/f" },
  { family: "fd", line: "cd link && echo x > f" },
  { family: "fd", line: "echo x > ~+/../outside/victim" },
  { family: "fd", line: "echo x > ~/h" },
  { family: "quote", line: `echo $'a\\' ; ${CANARY} ; echo '` },
  { family: "quote", line: `echo $'\\\\';${CANARY} \\'` },
  { family: "heredoc", line: `(cat <<E"O"F\n$x\nEOF\n${CANARY}\n)` },
  { family: "heredoc", line: `(cat <<E""OF\n\${x}\nEOF\necho pwned > ../outside/victim\n)` },
  { family: "assignment", line: `X=a\\\n${CANARY}` },
  { family: "heredoc", line: `cat <<EOF; $(${CANARY})\nEOF;\necho` },
  { family: "heredoc", line: `cat <<EOF|sh\n${CANARY}\nEOF|sh` },
]

export const ALL: ReadonlyArray<Seed> = [...GIVEN, ...OWN]
