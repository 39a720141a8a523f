import { spawn } from 'node:child_process'
import { cliArgs, root } from './serve-child.js'

/** What a finished `reelforge` command printed (stdout and stderr together), how it ended and how long it took. */
export interface CliRun {
  code: number | null
  signal: NodeJS.Signals | null
  output: string
  ms: number
}

/**
 * Runs `reelforge <args>` to its end (killed with SIGKILL after `timeoutMs`, which then shows as the signal):
 * for commands that must refuse to start. `env` is laid over the test's own environment.
 */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 90_000): Promise<CliRun> {
  const started = Date.now()
  const child = spawn(process.execPath, cliArgs(...args), {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, output, ms: Date.now() - started })
    }),
  )
}

/** The lines a run printed, without blank ones. */
export const linesOf = (run: CliRun) => run.output.split('\n').filter((l) => l.trim())

/**
 * An environment with none of the deployment's own settings: each test names the store, queue and bucket it
 * means, and the AWS SDK finds no credentials it was not given (no instance metadata lookups either).
 */
export const cleanEnv = (over: Record<string, string> = {}): Record<string, string> => ({
  REELFORGE_REDIS_URL: '',
  REELFORGE_DATABASE_URL: '',
  REELFORGE_SEGMENTS: '',
  REELFORGE_ACCOUNT_CONCURRENCY: '',
  REELFORGE_S3_BUCKET: '',
  REELFORGE_S3_ENDPOINT: '',
  REELFORGE_S3_REGION: '',
  REELFORGE_S3_PREFIX: '',
  AWS_ACCESS_KEY_ID: '',
  AWS_SECRET_ACCESS_KEY: '',
  AWS_PROFILE: '',
  AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/credentials',
  AWS_CONFIG_FILE: '/nonexistent/config',
  AWS_EC2_METADATA_DISABLED: 'true',
  // On Node 20 the SDK prints a 7-line notice about 2027 on its first client; it is not what a test reads.
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  ...over,
})
