/**
 * The variable that runs every command of the built CLI in the process started for it, with no
 * waiting process (src/cli/warm/): tests of that process's own behaviour (its module list, its
 * code cache, signals to it, killing it) stay deterministic. test/cli/warm/ tests the other path.
 */
export const OWN_PROCESS = { TOOLGATE_WARM: "0" } as const
