import { describe, expect, it } from "@effect/vitest"
import { WebAddress } from "../../../../src/tool/builtin/web/address.js"

describe("WebAddress", () => {
  const hosts: ReadonlyArray<readonly [string, string]> = [
    ["[::ffff:7f00:1]", "127.0.0.1"],
    ["[::ffff:a9fe:a9fe]", "169.254.169.254"],
    ["[::ffff:0:0]", "0.0.0.0"],
    ["[::1]", "[::1]"],
    ["[::7f00:1]", "[::7f00:1]"],
    ["localhost.", "localhost"],
    ["example.com..", "example.com"],
    [".", "."],
    ["127.0.0.1", "127.0.0.1"],
  ]
  for (const [hostname, host] of hosts) it(`canonicalHost: ${hostname} is ${host}`, () => expect(WebAddress.canonicalHost(hostname)).toBe(host))

  const addresses: ReadonlyArray<readonly [string, string]> = [
    ["127.0.0.1", "127.0.0.1"],
    ["::1", "[::1]"],
    ["0:0:0:0:0:0:0:1", "[::1]"],
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::FFFF:169.254.169.254", "169.254.169.254"],
    ["fe80::1%eth0", "[fe80::1]"],
    ["2001:DB8::1", "[2001:db8::1]"],
  ]
  for (const [address, host] of addresses) it(`hostOf: the resolved address ${address} is the host ${host}`, () => expect(WebAddress.hostOf(address)).toBe(host))

  it("counts every loopback spelling as both loopback hosts, and localhost names as loopback", () => {
    expect(WebAddress.reaches("0.0.0.0")).toEqual(["127.0.0.1", "[::1]"])
    expect(WebAddress.reaches("[::]")).toEqual(["127.0.0.1", "[::1]"])
    // A server bound to all interfaces answers both: a rule about one loopback host covers the other.
    expect(WebAddress.reaches("[::1]")).toEqual(["127.0.0.1"])
    expect(WebAddress.reaches("127.0.0.1")).toEqual(["[::1]"])
    expect(WebAddress.reaches("localhost")).toEqual(["127.0.0.1", "[::1]"])
    expect(WebAddress.reaches("api.localhost")).toEqual(WebAddress.LOOPBACK)
    expect(WebAddress.reaches("localhost.example.com")).toEqual([])
    // The whole loopback network: a service bound to all interfaces answers 127.0.0.2 too.
    expect(WebAddress.reaches("127.0.0.2")).toEqual(["127.0.0.1", "[::1]"])
    expect(WebAddress.reaches("127.255.1.9")).toEqual(["127.0.0.1", "[::1]"])
    expect(WebAddress.reaches(WebAddress.canonicalHost("[::ffff:7f00:2]"))).toEqual(["127.0.0.1", "[::1]"])
    expect(WebAddress.reaches(new URL("http://2130706434/").hostname)).toEqual(["127.0.0.1", "[::1]"])
    expect(WebAddress.reaches("128.0.0.1")).toEqual([])
    expect(WebAddress.reaches("[2001:db8::1]")).toEqual([])
  })

  it("counts this machine's own addresses as the loopback: a server bound to all interfaces answers there too", () => {
    const own = ["127.0.0.1", "[::1]", "192.0.2.2", "[fd00::2]"]
    expect(WebAddress.reaches("192.0.2.2", own)).toEqual(["127.0.0.1", "[::1]"])
    expect(WebAddress.reaches("[fd00::2]", own)).toEqual(["127.0.0.1", "[::1]"])
    expect(WebAddress.reaches(WebAddress.canonicalHost(new URL("http://[::ffff:192.0.2.2]/").hostname), own)).toEqual(["127.0.0.1", "[::1]"])
    expect(WebAddress.reaches(new URL("http://[64:ff9b::192.0.2.2]/").hostname, own)).toEqual(["192.0.2.2", "127.0.0.1", "[::1]"])
    // Another host of the same network is another machine.
    expect(WebAddress.reaches("192.0.2.3", own)).toEqual([])
  })

  it("counts a translated IPv6 address (NAT64, IPv4-translated) as the IPv4 address inside it", () => {
    const host = (spelling: string) => new URL(`http://${spelling}/`).hostname
    expect(WebAddress.reaches(host("[64:ff9b::169.254.169.254]"))).toEqual(["169.254.169.254"])
    expect(WebAddress.reaches(host("[64:ff9b::a9fe:a9fe]"))).toEqual(["169.254.169.254"])
    expect(WebAddress.reaches(host("[64:ff9b::10.0.0.5]"))).toEqual(["10.0.0.5"])
    expect(WebAddress.reaches(host("[::ffff:0:a9fe:a9fe]"))).toEqual(["169.254.169.254"])
    expect(WebAddress.reaches(host("[64:ff9b::127.0.0.1]"))).toEqual(["127.0.0.1", "[::1]"])
    expect(WebAddress.reaches(host("[64:ff9b::1]"))).toEqual(["0.0.0.1", "127.0.0.1", "[::1]"])
    // Another prefix is another network: no IPv4 inside it.
    expect(WebAddress.reaches(host("[64:ff9c::a9fe:a9fe]"))).toEqual([])
  })
})
