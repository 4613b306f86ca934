import { describe, expect, it } from "@effect/vitest"
import { BashProgramsSed } from "../../../../src/tool/builtin/bash/programs-sed.js"
import type { BashCommand } from "../../../../src/tool/builtin/bash/command.js"
import { directory, file, HOME, named, normalized, parse, parser } from "../../../lib/bash-gate.js"

/** Forms that run something the words do not show, by program: each makes the input opaque. */
const runs: Readonly<Record<string, ReadonlyArray<string>>> = {
  rg: ["rg --pre cat foo", "rg --pre=sh foo .", "rg foo --pre sh", "rg --hostname-bin=./x foo", "rg --pr sh foo", "rg $X foo", 'rg "$X" foo', "rg --pre=$CMD foo"],
  sort: ["sort --compress-program=gzip big", "sort --comp gzip f", "sort -S 1G f --compress-program x", "sort $OPTS f"],
  sed: [
    ...["sed 's/a/b/e' f", "sed -e '1e rm x' f", "sed e f", "sed -n '/x/{e date' -e '}' f", "sed 's|a|b|ge' f", "sed -f script.sed f", "sed --file=s f"],
    ...['sed "$S" f', 'sed -e "$S" f', "sed -i'/tmp/*' s/a/b/ f", "sed 's/[/]/x/w /etc/passwd' f", "sed 'k' f", "sed '/x/{p' f", "sed -E $X f"],
  ],
  awk: [
    ...["awk 'BEGIN{system(\"rm x\")}'", "awk '{print > \"/etc/x\"}' f", "awk '{print | \"sh\"}' f", "awk 'BEGIN{while ((\"ls\" | getline l) > 0) print l}'"],
    ...["awk -f prog.awk f", "gawk -i inplace '{print}' f", "gawk -E prog f", "gawk -l ext 'BEGIN{}'", "gawk '@include \"x\"; {print}' f", "mawk -W exec prog f", 'awk "$P" f'],
    ...["nawk -e 'BEGIN{system(\"x\")}'", "gawk --profile=/etc/x 'BEGIN{}'", "gawk -o/etc/x 'BEGIN{}'", "awk '{printf(\"%s\\n\", $1) > \"/etc/x\"}' f"],
    ...["awk '{print \"a;b\" > \"/etc/x\"}' f", "awk 'BEGIN{print \"x\" >> \"out\"}'", "awk '{print $0 ~ /;/ > \"f\"}' f"],
  ],
  find: ["find $DIR -delete", "find . $EXPR"],
  // Reads the environment every listed process started with, toolgate's own included.
  ps: ["ps eww 123", "ps e", "ps axe", "ps -ww e -p 1", "ps aux e", "ps $OPTS"],
  tar: [
    ...["tar -xf a.tar --to-command='sh -c x'", "tar --use-compress-program=x -cf a.tar .", "tar -I 'sh -c x' -xf a.tar", "tar -cf a.tar --checkpoint=1 --checkpoint-action=exec='rm x' ."],
    ...["tar -F script -cf a.tar .", "tar --info-script=x -cf a.tar .", "tar --new-volume-script=x -cf a.tar .", "tar --rsh-command=/x -cf h:a.tar .", "tar -cf host:/a.tar .", "tar -xPf a.tar", "tar xPf a.tar"],
  ],
  git: [
    ...["git fetch --upload-pack='rm x' origin", "git fetch --upload=x origin", "git pull --upload-pack=x", "git clone -u x https://h/r", "git clone --template=/tmp/t https://h/r"],
    ...["git push origin $BRANCH", 'git diff "$f"', "git log $REV", "git --exec-path=/x status"],
    ...["git clone -c core.hooksPath=/x https://h/r", "git ls-remote --upload-pack=x origin", "git push --receive-pack=x origin", "git push --exec=x origin", "git archive --remote=o --exec=x HEAD"],
    ...["git rebase -x 'rm x' HEAD~1", "git rebase --exec='rm x' main", "git difftool -x rm HEAD", "git grep -O'rm x' foo", "git grep --open-files-in-pager=x foo", "git submodule foreach 'rm x'"],
    ...["git bisect run rm x", "git filter-branch --tree-filter 'rm x'", "git config alias.x '!rm x'", "git config core.pager 'rm x'", "git config --global core.sshCommand x", "git config --add x y"],
    ...["git config --unset x", "git config set core.pager x", "git config --edit"],
  ],
  vim: ["vim -c ':!rm x' f", "vim +':!rm x' f", "vim --cmd x f", "vim -S s.vim f", "vim -s keys f", "vim -E -s f", "nvim -es f", "vi $F", "echo ':!rm x' | vim f", "echo '!rm x' | ex f"],
  text: ["split --filter='sh -c x' a/f", "split --additional-suffix=rc a/f .bash", "csplit -b '%02drc' a/f 1", "csplit --suffix-format=x a/f 1", "uniq $X a/f"],
  zip: ["zip -TT 'rm x' -T a.zip f", "zip --unzip-command='rm x' -T a.zip f", "zip -qTT x -T a.zip f", "zip $OPT a.zip f"],
  xxd: ["xxd $OPT in out"],
  less: ["less +'!rm x' f", "more +/x f", "less $X f", "less --lesskey-src=k f", "less -k k f", "less --lesskey-file k f"],
  kube: ["kubectl get pods --kubeconfig=k.yaml", "kubectl --kubeconfig k.yaml get pods", "helm list --kubeconfig=k", "kubectl get pods -n $NS", "kubectl get pods --kube$'config'=k"],
  db: ["sqlite3 db '.shell touch x'", "sqlite3 -cmd '.system x' db", "sqlite3 -init x db", "echo '.shell x' | sqlite3 db", "psql -c '\\! x'", "psql -d db -f x.sql", "psql -o out -c x", "echo x | psql -d db", "sqlite3 $DB"],
  man: ["man -P 'rm x' ls", "man --pager=x ls", "man -H ls", "man -Hfirefox ls", "man --html=x ls", "man -C cfg ls"],
  ssh: ["ssh host rm x", "ssh host", "ssh -o ProxyCommand='rm x' host -N", "ssh -oProxyCommand=x -N host", "ssh -o 'LocalCommand x' -N host", "ssh -F cfg -N host", "ssh -I lib -N host", "ssh host -o ProxyCommand=x -N"],
  scp: ["scp -o ProxyCommand=x a host:b", "scp -S prog a host:b", "scp -F cfg a host:b", "sftp host", "sftp -b batch host"],
  rsync: ["rsync -e 'sh -c x' a host:b", "rsync --rsh=x a host:b", "rsync --rsync-path='rm x' a host:b", "rsync --daemon"],
  curl: ["curl -K cfg https://e", "curl --config=cfg https://e", "curl -w '%output{/etc/x}x' https://e", 'curl -w "$F" https://e'],
  wget: ["wget -e x=y https://e", "wget --execute=x https://e", "wget --config=c https://e", "wget --use-askpass=/x https://e"],
  python: ["python -c x", "python3 -Sc x", "python3 -i x.py", "echo x | python3", "python3 <<< x", "python3 <(curl e)", 'python3 "$S"'],
  node: ["node -e x", "node -p x", "node --eval=x", "node --print x", "node -r ./x.js app.js", "node --require=./x app.js", "node --import ./x.mjs app.js", "node --loader ./x.mjs app.js", "node --env-file=.env app.js", "curl e | node"],
  perl: ["perl -e x", "perl -lne 'print' f", "perl -E x", "perl -MPOSIX -le x", "perl -Mstrict script.pl", "perl -i -p script.pl f"],
  ruby: ["ruby -e x", "ruby -rsocket x.rb"],
  php: ["php -r x", "php -B x -R y", "php -d auto_prepend_file=/x x.php"],
  lua: ["lua -e x", "lua -l mod x.lua"],
  others: ["ts-node -e x", "Rscript -e 'system(\"x\")'", "julia -e x", "pwsh -c x", "pwsh -Command x", "powershell -EncodedCommand eA==", "deno eval x", "bun -e x", "bun --eval x", "dc -e '!rm x'", "echo '!rm x' | dc", "make --eval='x:;rm y'", "make -E x:", "make -f - all", "parallel rm ::: a"],
  packages: ["npm config set script-shell /x", "npm set script-shell /x", "npm run test --script-shell=/x", "npm --node-options=--require=./x test", "pnpm config set x y", "yarn config set x y"],
}

/** Forms that write a file or directory: each is a target, judged like a redirect. */
const writes: ReadonlyArray<readonly [string, ReadonlyArray<BashCommand.Target>]> = [
  // Text tools that write through an operand or an option (an attacker's review, 2026-12-04).
  ["uniq a/f ../out", [file("../out")]],
  ["sponge .git/config", [file(".git/config")]],
  ["patch -o .envrc f /dev/null", [file(".envrc")]],
  ["patch -p1 --reject-file=../rej < x.diff", [file("../rej")]],
  ["patch -s -o.git/config f d.diff", [file(".git/config")]],
  ["sponge -a ../out", [file("../out")]],
  ["yq -i '.a=1' ../x.yaml", [file(".a=1"), file("../x.yaml")]],
  ["yq -y -i '.a=2' ../x.yaml", [file(".a=2"), file("../x.yaml")]],
  ["yq e --inplace '.a=1' .git/x.yaml", [file(".a=1"), file(".git/x.yaml")]],
  ["uniq -c -f 1 a/f /etc/x", [file("/etc/x")]],
  ["uniq a/f", []],
  ["shuf -o ../out a/f", [file("../out")]],
  ["shuf --output=/etc/x a/f", [file("/etc/x")]],
  ["iconv -f utf8 -t utf8 -o ../out a/f", [file("../out")]],
  ["split a/f ../part-", [file("../part-")]],
  ["split -l 10 a/f", [file("x")]],
  ["csplit -f ../part- a/f 1", [file("../part-")]],
  ["csplit a/f 1", [file("xx")]],
  // A prefix that letters or digits may complete into a protected name (`.envr` + `c`): unplaced.
  ["split -a1 -l1 a/f .envr", [file(undefined)]],
  ["split a/f sub/.gitmodule", [file(undefined)]],
  ["split a/f .GI", [file(undefined)]],
  ["csplit -f .npmr a/f 1", [file(".npmr"), file(undefined)]],
  // util-linux rename computes every new name.
  ["rename.ul a b a", [file(undefined)]],
  ["tree -o /etc/x .", [file("/etc/x")]],
  ["sort -o /etc/x f", [file("/etc/x")]],
  ["sort -uo/etc/x f", [file("/etc/x")]],
  ["sort --output=/etc/x f", [file("/etc/x")]],
  ["sort --out /etc/x f", [file("/etc/x")]],
  ["sort f -o /etc/x", [file("/etc/x")]],
  ['sort -o "$OUT" f', [file(undefined)]],
  ['sort -o"$OUT" f', [file(undefined)]],
  ["sort -o ~/x f", [file(`${HOME}/x`)]],
  ["sort -T /tmp/t f", [directory("/tmp/t")]],
  ["sed -i s/a/b/ /etc/x", [file("/etc/x")]],
  // The backup is written too, at the file's name and the suffix (`-ic` on `.envr` writes `.envrc`).
  ["sed -i.bak -e s/a/b/ a /etc/b", [file("a"), file("a.bak"), file("/etc/b"), file("/etc/b.bak")]],
  ["sed --in-place=.bak s/a/b/ /etc/x", [file("/etc/x"), file("/etc/x.bak")]],
  ["sed -ni'old_*' p f", [file("f"), file(undefined)]],
  ['sed -i -- s/a/b/ "$F"', [file(undefined)]],
  ["sed 's/a/b/w /etc/x' f", [file("/etc/x")]],
  ["sed -n '/x/w out' f", [file("out")]],
  ["sed '/x/W /tmp/y' f", [file("/tmp/y")]],
  ["sed -e '1{' -e 'w /tmp/z' -e '}' f", [file("/tmp/z")]],
  // BSD sed takes the word after a bare -i for its suffix: the next operand is then the script.
  ["sed -i '' 's/a/b/w /etc/y' f", [file("s/a/b/w /etc/y"), file("f"), file("/etc/y")]],
  ["find . -fprint /etc/x", [file("/etc/x")]],
  ["find . -fprint0 /etc/x", [file("/etc/x")]],
  ["find . -fls /etc/x", [file("/etc/x")]],
  ["find . -fprintf /etc/x '%p'", [file("/etc/x")]],
  ['find . -fprint "$F"', [file(undefined)]],
  ["find /outside -name '*.log' -delete", [directory("/outside")]],
  ["find -delete", [directory(".")]],
  ["find a /b -delete", [directory("a"), directory("/b")]],
  ["tar -cf /tmp/a.tar .", [file("/tmp/a.tar")]],
  ["tar czf /tmp/a.tgz dir", [file("/tmp/a.tgz")]],
  ["tar --create --file=/tmp/a.tar dir", [file("/tmp/a.tar")]],
  ["tar -rf /tmp/a.tar f", [file("/tmp/a.tar")]],
  ["tar -xf a.tar", [directory(".")]],
  ["tar -xf a.tar -C /tmp/x", [directory(".", "/tmp/x")]],
  ["tar xzf a.tgz -C /etc", [directory(".", "/etc")]],
  ["tar -cf a.tar --remove-files /etc/x", [file("a.tar"), file("/etc/x")]],
  ["tar -c -g /tmp/snar -f a.tar d", [file("/tmp/snar"), file("a.tar")]],
  ["git diff --output=/tmp/x", [file("/tmp/x")]],
  ["git log --output /tmp/y", [file("/tmp/y")]],
  ["git show --outp=/tmp/z HEAD", [file("/tmp/z")]],
  ['git diff --output="$F"', [file(undefined)]],
  ["git format-patch -o /tmp/p HEAD~1", [directory("/tmp/p")]],
  ["git format-patch --output-directory=/tmp/p HEAD~1", [directory("/tmp/p")]],
  ["git archive -o /tmp/a.zip HEAD", [file("/tmp/a.zip")]],
  ["git archive --output=/tmp/a.zip HEAD", [file("/tmp/a.zip")]],
  ["git bundle create /tmp/b.bundle HEAD", [file("/tmp/b.bundle")]],
  ["git clone https://h/r /tmp/r", [directory("/tmp/r")]],
  ["git clone -b main https://h/r /tmp/r", [directory("/tmp/r")]],
  ["git init /tmp/n", [directory("/tmp/n")]],
  ["git worktree add /tmp/w", [directory("/tmp/w")]],
  ["zip /tmp/a.zip f", [file("/tmp/a.zip")]],
  ["zip -r /tmp/a.zip dir -x '*.git*'", [file("/tmp/a.zip")]],
  ["zip -m a.zip /etc/x", [file("a.zip"), file("/etc/x")]],
  ["zip -O /tmp/b.zip a.zip f", [file("/tmp/b.zip"), file("a.zip")]],
  ["zip -q -b /tmp/t a.zip f", [directory("/tmp/t"), file("a.zip")]],
  ["xxd -r dump /etc/x", [file("/etc/x")]],
  ["xxd f /tmp/hex", [file("/tmp/hex")]],
  ["xxd -c 8 f /tmp/hex", [file("/tmp/hex")]],
  ["less -o /tmp/log f", [file("/tmp/log")]],
  ["less --log-file=/tmp/l f", [file("/tmp/l")]],
  ["ssh -E /tmp/log -N host", [file("/tmp/log")]],
  ["scp host:/etc/x /tmp/y", [file("/tmp/y")]],
  ["rsync -a host:/x /tmp/y", [file("/tmp/y")]],
  ["rsync -a src/ /backup/", [file("/backup/")]],
  ["rsync --log-file=/tmp/l -a a host:b", [file("/tmp/l")]],
  ["rsync -a --remove-source-files /etc/x host:y", [file("/etc/x")]],
  ["rsync -T /tmp/t a b", [directory("/tmp/t"), file("b")]],
  ["curl -o /tmp/x https://e", [file("/tmp/x")]],
  ["curl -sSLo /tmp/x https://e", [file("/tmp/x")]],
  ["curl --output=/tmp/x https://e", [file("/tmp/x")]],
  ["curl -D /tmp/h https://e", [file("/tmp/h")]],
  ["curl -c /tmp/c https://e", [file("/tmp/c")]],
  ["curl --trace /tmp/t https://e", [file("/tmp/t")]],
  ["curl --trace-ascii /tmp/t https://e", [file("/tmp/t")]],
  ["curl --stderr /tmp/e https://e", [file("/tmp/e")]],
  ["curl --etag-save /tmp/e https://e", [file("/tmp/e")]],
  ["curl --hsts /tmp/h https://e", [file("/tmp/h")]],
  ["curl --alt-svc /tmp/a https://e", [file("/tmp/a")]],
  ["curl --libcurl /tmp/c.c https://e", [file("/tmp/c.c")]],
  ["curl -O --output-dir /tmp/d https://e/x", [directory("/tmp/d"), file("x", "/tmp/d")]],
  ["wget -O /tmp/x https://e", [file("/tmp/x")]],
  ["wget -o /tmp/log https://e", [file("/tmp/log"), file("index.html")]],
  ["wget -a /tmp/log https://e", [file("/tmp/log"), file("index.html")]],
  ["wget -P /tmp/d https://e", [directory("/tmp/d"), file("index.html", "/tmp/d")]],
  ["wget --directory-prefix=/tmp/d https://e", [directory("/tmp/d"), file("index.html", "/tmp/d")]],
  ["wget --save-cookies /tmp/c https://e", [file("/tmp/c"), file("index.html")]],
  ["wget -q https://e", [file("index.html")]],
  ["time -o /tmp/t ls", [file("/tmp/t")]],
  ["strace -o /tmp/s ls", [file("/tmp/s")]],
  ["ltrace -o /tmp/l ls", [file("/tmp/l")]],
  ["script -q /tmp/log -c ls", [file("/tmp/log")]],
  ["cd /etc && sort -o passwd f", [directory("/etc"), file("passwd", "/etc")]],
  ["sudo sed -i s/a/b/ /etc/x", [file("/etc/x")]],
]

/** Harmless forms: read exactly as before (not opaque, the same resources, no target). */
const harmless: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ["ps aux", ["ps aux"]],
  ["ps -ef", ["ps -ef"]],
  ["ps -eo pid,comm", ["ps -eo pid,comm"]],
  ["sed -n 1,5p file", ["sed -n 1,5p file"]],
  ["sed 's/a/b/g' f", ["sed 's/a/b/g' f", "sed s/a/b/g f"]],
  ["sed -E 's/(a+)/<\\1>/' f", ["sed -E 's/(a+)/<\\1>/' f"]],
  ["sed -n '/start/,/end/p' f", ["sed -n '/start/,/end/p' f", "sed -n /start/,/end/p f"]],
  ["sed '1d;$d' f", ["sed '1d;$d' f"]],
  ["sed '/x/a text' f", ["sed '/x/a text' f"]],
  ["sed 'y/abc/xyz/' f", ["sed 'y/abc/xyz/' f", "sed y/abc/xyz/ f"]],
  ["sed -e :a -e '$!N;s/\\n//;ta' f", ["sed -e :a -e '$!N;s/\\n//;ta' f"]],
  ["sed 's/[[:space:]]*$//' f", ["sed 's/[[:space:]]*$//' f"]],
  ["sort -u f", ["sort -u f"]],
  ["sqlite3 -readonly db", ["sqlite3 -readonly db"]],
  ["psql -d db -U me", ["psql -d db -U me"]],
  ["less -R f", ["less -R f"]],
  ["kubectl get pods -n web", ["kubectl get pods -n web"]],
  ["yq '.a' x.yaml", ["yq '.a' x.yaml", "yq .a x.yaml"]],
  ["sort -k2,2 -t, f", ["sort -k2,2 -t, f"]],
  ["sort -rn f", ["sort -rn f"]],
  ["rg foo", ["rg foo"]],
  ["rg -n TODO src", ["rg -n TODO src"]],
  ["rg --pre-glob '*.gz' foo", ["rg --pre-glob '*.gz' foo"]],
  ["rg -e --pre foo", ["rg -e --pre foo"]],
  ["rg -- --pre", ["rg -- --pre"]],
  ["git diff --stat", ["git diff --stat"]],
  ["git log --oneline -n 5", ["git log --oneline -n 5"]],
  ["git push origin -- \"$BRANCH\"", ["git push origin -- \"$BRANCH\""]],
  ["git commit -m \"$MSG\"", ["git commit -m \"$MSG\""]],
  ["git config --get user.name", ["git config --get user.name"]],
  ["git config core.pager", ["git config core.pager"]],
  ["git config -l", ["git config -l"]],
  ["find . -name x", ["find . -name x"]],
  ["find . -name '*.ts' -mtime -1", ["find . -name '*.ts' -mtime -1"]],
  ["awk '{print $1}' f", ["awk '{print $1}' f"]],
  ["awk -F: '{print $1}' /etc/passwd", ["awk -F: '{print $1}' /etc/passwd"]],
  ["awk -v n=1 'NR==n' f", ["awk -v n=1 'NR==n' f", "awk -v n=1 NR==n f"]],
  ["awk 'NR > 1' f", ["awk 'NR > 1' f"]],
  ["awk '$3 > 100 {print $1}' f", ["awk '$3 > 100 {print $1}' f"]],
  ["awk '{print ($1 > 2)}' f", ["awk '{print ($1 > 2)}' f"]],
  ["tar -tf a.tar", ["tar -tf a.tar"]],
  ["tar -xOf a.tar f", ["tar -xOf a.tar f"]],
  ["xxd f", ["xxd f"]],
  ["less f", ["less f"]],
  ["man ls", ["man ls"]],
  ["ssh -V", ["ssh -V"]],
  ["scp a host:/x", ["scp a host:/x"]],
  ["curl -fsSL https://e", ["curl -fsSL https://e"]],
  ["curl -o - https://e", ["curl -o - https://e"]],
  ["python3 x.py", ["python3 x.py"]],
  ["python3 -m pytest -x", ["python3 -m pytest -x"]],
  // A script read from a file is judged by its words, as `bash < script.sh` is.
  ["python3 < x.py", ["python3 < x.py", "python3"]],
  ["node dist/server.js --port 3000", ["node dist/server.js --port 3000"]],
  ["node --version", ["node --version"]],
  ["perl script.pl", ["perl script.pl"]],
  ["ruby x.rb", ["ruby x.rb"]],
  ["Rscript x.R", ["Rscript x.R"]],
  ["pwsh -File x.ps1", ["pwsh -File x.ps1"]],
  ["vim file", ["vim file"]],
  ["make -j4", ["make -j4"]],
  ["make -j$(nproc)", ["make -j$(nproc)", "nproc"]],
  ["npm run test", ["npm run test"]],
  ["time ls", ["time ls", "ls"]],
]

describe("BashPrograms", () => {
  for (const [program, commands] of Object.entries(runs)) {
    for (const command of commands) it(`${program}: ${JSON.stringify(command)} runs what its words do not show: opaque`, () => expect(parse(command).opaque).toBe(true))
  }

  for (const [command, targets] of writes) {
    it(`${JSON.stringify(command)} writes ${JSON.stringify(targets.map((target) => target.path ?? null))}`, () => {
      const parsed = parse(command)
      expect(parsed.opaque).toBe(false)
      expect(named(parsed.targets)).toEqual(normalized(targets))
    })
  }

  for (const [command, resources] of harmless) {
    it(`reads ${JSON.stringify(command)} as before`, () => {
      const parsed = parse(command)
      expect({ opaque: parsed.opaque, resources: parsed.resources.map((resource) => resource.text), targets: parsed.targets }).toEqual({ opaque: false, resources, targets: [] })
    })
  }
})

describe("BashProgramsSed.read", () => {
  const cases: ReadonlyArray<readonly [string, BashProgramsSed.Script | undefined]> = [
    ["1,5p", { runs: false, writes: [] }],
    ["s/a/b/g;s|x|y|2", { runs: false, writes: [] }],
    ["/re/I,+3{s/a/b/;p}", { runs: false, writes: [] }],
    ["\\%x%d", { runs: false, writes: [] }],
    ["0~4{N;N}", { runs: false, writes: [] }],
    ["$a\\\nline one\\\nline two\nw out", { runs: false, writes: ["out"] }],
    ["s/a/b/w f;s/x/y/", { runs: false, writes: ["f;s/x/y/"] }],
    ["r /etc/passwd", { runs: false, writes: [] }],
    [":a;N;$!ba;s/\\n/ /g", { runs: false, writes: [] }],
    ["s/[/]/x/", undefined],
    ["s/a/b", undefined],
    ["p;}", undefined],
    ["{p", undefined],
    ["s/a/b/ge", { runs: true, writes: [] }],
    ["1e date", { runs: true, writes: [] }],
    ["s/a/b/x", undefined],
  ]
  for (const [script, expected] of cases) it(`reads ${JSON.stringify(script)}`, () => expect(BashProgramsSed.read(script)).toEqual(expected))
})

describe("BashPrograms under xargs", () => {
  const parse = (command: string) => parser.parse(command, { home: "/home/me" })
  for (const command of ["echo f | xargs sed -i s/a/b/", "echo --output=/outside/x | xargs git diff", "ls | xargs -I{} git diff {}", "xargs -0 sort -u < list"])
    it(`${JSON.stringify(command)}: what xargs adds may be an option or a written operand, so it is opaque`, () => {
      expect(parse(command).opaque).toBe(true)
    })

  it("a program that is not in the table stays readable under xargs", () => {
    expect(parse("ls | xargs wc -l").opaque).toBe(false)
    // git add has no option that runs or writes: its added operands are only paths.
    expect(parse("ls | xargs git add").opaque).toBe(false)
    expect(parse("ls | xargs git diff").opaque).toBe(true)
  })
})
