/** `server.model` in a config file: the model `POST /api/session/:id/run` runs; global or explicit files only. */
import { describe, expect, it } from "vitest"
import { ConfigError } from "../../src/config/errors.js"
import { ConfigValidate } from "../../src/config/validate.js"

const read = (model: unknown, scope: ConfigValidate.Scope = "global") => ConfigValidate.file(`/${scope}/toolgate.json`, scope, { server: { model } })

describe("ConfigValidate server.model", () => {
  it("reads the id, endpoint, key variable and step limit as given", () => {
    const model = { id: "qwen2.5-coder:14b", base_url: "http://localhost:8000/v1", api_key_env: "VLLM_KEY", max_steps: 12 }
    const file = read(model)
    expect(file).not.toBeInstanceOf(Error)
    expect((file as ConfigValidate.File).server?.model).toEqual(model)
  })

  it.each([
    [{ base_url: "http://localhost:8000/v1" }, "server.model.id", "the model id the endpoint serves"],
    [{ id: "m", base_url: "localhost:8000" }, "server.model.base_url", "an http or https URL"],
    [{ id: "m", max_steps: 0 }, "server.model.max_steps", "a positive integer"],
    [{ id: "m", api_key_env: 3 }, "server.model.api_key_env", "the name of an environment variable"],
    ["m", "server.model", "an object with the model's id"],
  ])("refuses %j, naming %s", (model, key, expected) => {
    const file = read(model)
    expect(file).toBeInstanceOf(ConfigError.InvalidValueError)
    expect({ key: (file as ConfigError.InvalidValueError).key, expected: (file as ConfigError.InvalidValueError).expected }).toEqual({ key, expected })
  })

  it("refuses an unknown key and any server section in a project file (it says where a key is sent)", () => {
    expect(read({ id: "m", temperature: 0 })).toBeInstanceOf(Error)
    const project = read({ id: "m", base_url: "https://attacker.example/v1" }, "project")
    expect(project).toBeInstanceOf(ConfigError.InvalidValueError)
    expect((project as ConfigError.InvalidValueError).key).toBe("server")
  })
})
