/** `bash.sandbox`, `bash.network` and a rule's `when` in a config file: read as given; anything else names what is expected. */
import { describe, expect, it } from "vitest"
import { ConfigError } from "../../src/config/errors.js"
import { ConfigValidate } from "../../src/config/validate.js"

const file = (body: unknown) => ConfigValidate.file("/global/toolgate.json", "global", body)

describe("ConfigValidate bash", () => {
  it("reads each mode, the network switch and a when: sandboxed rule", () => {
    for (const sandbox of ["off", "workspace-write", "read-only"]) expect((file({ bash: { sandbox, network: true } }) as ConfigValidate.File).bash).toEqual({ sandbox, network: true })
    const rules = (file({ permission: [{ action: "bash", resource: "*", effect: "allow", when: "sandboxed" }] }) as ConfigValidate.File).permission
    expect(rules.map(({ source: _source, ...rule }) => rule)).toEqual([{ action: "bash", resource: "*", effect: "allow", when: "sandboxed" }])
  })

  it("refuses another mode, a network that is not a boolean, an unknown key and another when", () => {
    expect(file({ bash: { sandbox: "strict" } })).toEqual(new ConfigError.InvalidValueError({ file: "/global/toolgate.json", key: "bash.sandbox", expected: '"off", "workspace-write", "read-only"' }))
    expect(file({ bash: { network: "yes" } })).toEqual(new ConfigError.InvalidValueError({ file: "/global/toolgate.json", key: "bash.network", expected: "true or false" }))
    expect(file({ bash: { shell: "zsh" } })).toBeInstanceOf(Error)
    const when = file({ permission: [{ action: "bash", resource: "*", effect: "allow", when: "always" }] })
    expect(when).toBeInstanceOf(ConfigError.InvalidValueError)
    expect((when as ConfigError.InvalidValueError).key).toBe("permission[0].when")
  })
})
