/**
 * Programs that hand a command to something the call does not run, or run what a peer sends
 * (07): each was allowed under a `git push *` deny with `git push` as its command, found by the
 * fifth review and checked here with the real programs where they exist (test/tool/builtin/bash/
 * launch-detach.test.ts). All are opaque, so they ask (fail closed):
 * - relays that run a command for a network peer or an address: `socat - EXEC:'cmd'` (socat's
 *   addresses also open, create and write files), `ncat --sh-exec 'cmd'`, `nc -e /bin/sh`,
 *   `nc -c 'cmd'`; a plain connection (`nc host 80`, `ncat -l 8080`) is read as usual;
 * - schedulers that run commands later, outside the session and its snapshot: `at`, `batch`
 *   (the command on standard input or in a file) and `crontab` (a new table; `crontab -l` only
 *   lists);
 * - programs that run a command in a process of their own: `daemonize`, terminal emulators
 *   (`xterm -e cmd`, `gnome-terminal -- cmd`), `emacsclient -e` (an Emacs server evaluates it);
 * - servers that run their command for each connection (the sixth review):
 *   `systemd-socket-activate -l 127.0.0.1:p git push o` pushed once a client connected.
 */
export * as BashParseDetach from "./parse-detach.js"

import { BashParseLayer } from "./parse-layer.js"

type Reader = BashParseLayer.Reader

const OPAQUE = BashParseLayer.OPAQUE

/** netcat's options that run a program or a shell string (traditional nc, ncat, busybox nc). */
const NC_RUNS_SHORT = ["e", "c"]
const NC_RUNS_LONG = ["--exec", "--sh-exec", "--lua-exec"]

/**
 * `nc`/`ncat`/`netcat`: opaque when an option may run a program (`-e`, `-c`, in a cluster too,
 * `--exec`, `--sh-exec`, `--lua-exec`, or an abbreviation getopt takes), or a word is unknown.
 * OpenBSD nc's `-c` (CRLF line ends) asks too: the same letter cannot be told apart.
 */
const netcat: Reader = (words, start, end) => {
  for (let at = start + 1; at < end; at++) {
    const word = words[at]
    if (word === undefined) return OPAQUE
    if (word === "--") return undefined
    if (word.startsWith("--")) {
      const name = word.split("=")[0] as string
      if (name.length > 2 && NC_RUNS_LONG.some((option) => option.startsWith(name))) return OPAQUE
    } else if (word.startsWith("-") && Array.from(word.slice(1)).some((letter) => NC_RUNS_SHORT.includes(letter))) return OPAQUE
  }
  return undefined
}

/** `crontab -l` (with `-u user`) lists; any other use installs, edits or removes a table. */
const crontab: Reader = (words, start, end) => {
  const args = words.slice(start + 1, end)
  const rest = args.length === 3 && args[0] === "-u" ? [args[2]] : args.length === 3 && args[1] === "-u" ? [args[0]] : args
  return rest.length === 1 && rest[0] === "-l" ? undefined : OPAQUE
}

/** Terminal emulators: each runs a shell or the command its options name, in a window of its own. */
const TERMINALS = [
  ...["xterm", "uxterm", "x-terminal-emulator", "gnome-terminal", "konsole", "xfce4-terminal", "mate-terminal", "lxterminal", "terminator"],
  ...["tilix", "kitty", "alacritty", "wezterm", "foot", "urxvt", "rxvt", "rxvt-unicode", "st", "sakura", "terminology", "qterminal", "cool-retro-term"],
]

/**
 * Servers that run the command of their later words for each connection, or once connected:
 * systemd's socket activation, ucspi's `tcpserver`/`tcpclient` (and the ssl and unix ones),
 * ipsvd's and busybox's `tcpsvd`/`udpsvd`, s6-networking's, the super-servers (`inetd`, `xinetd`,
 * whose config names the commands) and the web terminals (`websocketd`, `ttyd`, `gotty`).
 */
const SERVERS = [
  ...["systemd-socket-activate", "tcpserver", "tcpclient", "sslserver", "sslclient", "unixserver", "unixclient", "tcpsvd", "udpsvd"],
  ...["s6-tcpserver", "s6-tcpserver4", "s6-tcpserver6", "s6-tcpclient", "s6-ipcserver", "s6-ipcclient", "s6-tlsserver", "s6-tlsclient"],
  ...["inetd", "xinetd", "websocketd", "ttyd", "gotty"],
]

export const READERS: ReadonlyArray<readonly [string, Reader]> = [
  ["socat", BashParseLayer.opaque],
  ["nc", netcat],
  ["ncat", netcat],
  ["netcat", netcat],
  ["nc.traditional", netcat],
  ["nc.openbsd", netcat],
  ["at", BashParseLayer.opaque],
  ["batch", BashParseLayer.opaque],
  ["crontab", crontab],
  ["daemonize", BashParseLayer.opaque],
  ["emacsclient", BashParseLayer.opaque],
  ...TERMINALS.map((name) => [name, BashParseLayer.opaque] as const),
  ...SERVERS.map((name) => [name, BashParseLayer.opaque] as const),
]
