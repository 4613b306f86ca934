import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    // Commands of the built CLI started with this process's environment run in their own process
    // (test/lib/own-process.ts); test/cli/warm/ turns waiting processes on where it tests them.
    env: { TOOLGATE_WARM: "0" },
  },
})
