/**
 * This machine's own addresses, as URL hosts (canonical, WebAddress.hostOf). A connection to one
 * of them never leaves the machine: a server bound to all interfaces (`0.0.0.0`, `::`, Node's
 * default) answers at the LAN address exactly as at `127.0.0.1`, so `http://192.0.2.2:8080/`
 * reached the server that a deny on `http://127.0.0.1:*` was written for. Read at each call
 * (addresses come and go with interfaces); a machine whose interfaces cannot be read has none.
 */
export * as WebOwnHosts from "./own-hosts.js"

import os from "node:os"
import { WebAddress } from "./address.js"

/**
 * Every address of every interface, loopback included.
 * @example WebOwnHosts.current() // ["127.0.0.1", "[::1]", "192.0.2.2", "[fd00::2]", "[fe80::fc:ff:fe00:1]"]
 */
export const current = (): ReadonlyArray<string> => {
  try {
    return [...new Set(Object.values(os.networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => WebAddress.hostOf(entry.address))))]
  } catch {
    return []
  }
}
