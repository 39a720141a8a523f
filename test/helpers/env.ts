/**
 * Runs `work` with the environment variables in `vars` set (a render reads its switches, such as
 * `REELFORGE_DECODED_I420`, when it runs), then puts back what each was before, also when `work` throws.
 */
export async function withEnv<T>(vars: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]))
  Object.assign(process.env, vars)
  try {
    return await work()
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
}
