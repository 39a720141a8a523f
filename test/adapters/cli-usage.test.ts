import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { probe } from '../../kit.js'
import { tempDir } from '../helpers/media.js'
import { cliArgs } from '../helpers/serve-child.js'

// The CLI's answers to a newcomer's slips, run as a user runs it: in a folder of their own (where a missing -o
// puts the file), each mistake answered in one line that says what to do, with an exit status a script can test.

const root = new URL('../..', import.meta.url).pathname
const home = tempDir()
// tsx looks for tsconfig.json in the working folder; the service's decorators need this checkout's.
const env = { ...process.env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') }
const cliIn = (cwd: string, ...args: string[]) => spawnSync(process.execPath, cliArgs(...args), { cwd, env, encoding: 'utf8' })
const cli = (...args: string[]) => cliIn(home, ...args)
const write = (name: string, data: object | string) => {
  const path = join(home, name)
  writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data, null, 2))
  return path
}
const edit = {
  timeline: { background: '#0000ff', tracks: [{ clips: [{ asset: { type: 'title', text: 'x' }, start: 0, length: 2 }] }] },
  output: { format: 'mp4', size: { width: 160, height: 90 }, fps: 12 },
}
const lines = (s: string) => s.trim().split('\n')
/** Every `--flag` a message names, for checking against the command's own help. */
const flagsIn = (s: string) => [...s.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0])

const test = suite('reelforge CLI: slips answered plainly')

test('render without -o writes out/<edit name>.<format> in the current folder and says so', async () => {
  const res = cli('render', write('card.json', edit), '-q')
  assert.is(res.status, 0, res.stderr)
  const out = join(home, 'out', 'card.mp4')
  assert.ok(existsSync(out), 'out/card.mp4 written')
  assert.match(res.stderr, /^no -o given: writing out\/card\.mp4$/m)
  assert.equal((await probe(out)).streams.find((s) => s.type === 'video')!.frames, 24)
  const gif = cli('render', write('card.json', edit), '--format', 'gif', '-q')
  assert.is(gif.status, 0, gif.stderr)
  assert.ok(existsSync(join(home, 'out', 'card.gif')), 'the extension follows the format')
})

test('still without -o writes out/<edit name>-<t>s.png', () => {
  const res = cli('still', write('card.json', edit), '-t', '1.5')
  assert.is(res.status, 0, res.stderr)
  assert.ok(existsSync(join(home, 'out', 'card-1.5s.png')))
  assert.match(res.stderr, /^no -o given: writing out\/card-1\.5s\.png$/m)
})

test('an unknown option: one line naming the closest option and the help to read; exit 64', () => {
  const res = cli('render', write('card.json', edit), '--fromat', 'webm')
  assert.is(res.status, 64)
  assert.equal(lines(res.stderr), ['error: unknown option --fromat (did you mean --format?); see reelforge render --help'])
  const far = cli('validate', write('card.json', edit), '--zzz')
  assert.equal(lines(far.stderr), ['error: unknown option --zzz; see reelforge validate --help'])
  assert.is(far.status, 64)
  const missing = cli('render', write('card.json', edit), '-o')
  assert.equal(lines(missing.stderr), ['error: -o (--out) needs a value; see reelforge render --help'])
  assert.is(missing.status, 64)
  const flag = cli('validate', write('card.json', edit), '--help=yes')
  assert.equal(lines(flag.stderr), ['error: --help takes no value; see reelforge validate --help'])
})

test('an unknown command: one line with the closest command; exit 64', () => {
  const res = cli('rendr', 'card.json')
  assert.is(res.status, 64)
  assert.equal(lines(res.stderr), ['error: unknown command "rendr" (did you mean render?); see reelforge --help'])
  const far = cli('frobnicate')
  assert.equal(lines(far.stderr), ['error: unknown command "frobnicate"; see reelforge --help'])
  assert.is(far.status, 64)
})

test('--log-format takes text or json, on any command; anything else exits 64 saying so', () => {
  const res = cli('worker', '--log-format', 'xml')
  assert.is(res.status, 64)
  assert.match(res.stderr, /^--log-format must be text or json, not xml/)
})

test('the help each pointer names exists: `reelforge <command> --help` prints usage and exits 0, touching nothing', () => {
  const fresh = join(home, 'fresh')
  mkdirSync(fresh)
  for (const command of ['render', 'still', 'validate', 'preview', 'serve', 'worker', 'keys', 'wallet', 'compat', 'story']) {
    const res = cliIn(fresh, command, '--help')
    assert.is(res.status, 0, `${command} --help: ${res.stderr}`)
    assert.match(res.stdout + res.stderr, /usage/, command)
  }
  assert.not.ok(existsSync(join(fresh, 'data')), '--help opens no database')
  assert.is(cli('--help').status, 0)
})

test('bad JSON: the line and column, the line itself and a caret under the fault; exit 64', () => {
  const file = write('broken.json', '{\n  "timeline": {\n    "tracks": [,]\n  }\n}\n')
  const res = cli('validate', file)
  assert.is(res.status, 64)
  assert.equal(lines(res.stderr), [
    `error: ${file} is not JSON: line 3, column 16: expected a value, found ","`,
    '    3 |     "tracks": [,]',
    `      | ${' '.repeat(15)}^`,
  ])
  const end = cli('render', write('short.json', '{"timeline": {"tracks": ['))
  assert.match(end.stderr, /short\.json is not JSON: line 1, column 26: expected a value, found the end of the file/)
  const rows = write('rows.json', '[{"NAME": "a"}\n {"NAME": "b"}]')
  const merge = cli('render', write('card.json', edit), '--merge-file', rows)
  assert.is(merge.status, 64)
  assert.match(merge.stderr, /rows\.json is not JSON: line 2, column 2: expected "," or "\]", found "\{"\n {4}2 \| {2}\{"NAME": "b"\}\]\n {6}\| {2}\^/)
})

test('still -t past the end of the edit is refused, naming its length; nothing written', () => {
  const out = join(home, 'late.png')
  const res = cli('still', write('card.json', edit), '-t', '99', '-o', out)
  assert.is(res.status, 64, res.stderr)
  assert.equal(lines(res.stderr), ['error: -t 99 is past the end of the edit: it lasts 2 s, so its last frame is at -t 1.917'])
  assert.not.ok(existsSync(out))
  const unnamed = cli('still', write('card.json', edit), '-t', '99')
  assert.equal(lines(unnamed.stderr), [lines(res.stderr)[0]], 'no word of a file it did not write')
  assert.is(cli('still', write('card.json', edit), '-t', '1.917', '-o', out).status, 0, 'the last frame itself is drawn')
})

test('a bad --resolution, --fps or --quality exits 64 naming the option and its values, before any work', () => {
  const card = write('card.json', edit)
  for (const [flag, value, said] of [
    ['--resolution', 'huge', 'error: --resolution must be one of preview, mobile, sd, hd, 1080, 4k; not huge'],
    ['--fps', '31', 'error: --fps must be one of 12, 15, 23.976, 24, 25, 29.97, 30, 48, 50, 59.94, 60; not 31'],
    ['--quality', 'best', 'error: --quality must be one of verylow, low, medium, high, veryhigh; not best'],
  ] as const) {
    const res = cli('render', card, flag, value, '-o', join(home, 'bad.mp4'))
    assert.equal([res.status, lines(res.stderr)], [64, [said]], `${flag} ${value}`)
  }
})
test('a folder -o cannot be written in is one error line (no raw EACCES/EEXIST), exit 1', () => {
  const file = write('a-file', 'not a folder')
  const res = cli('render', write('card.json', edit), '-o', join(file, 'h.mp4'))
  assert.is(res.status, 1, res.stderr)
  assert.is(lines(res.stderr).at(-1), `error E_OUTPUT_FAILED: cannot make the folder ${file} for the output: a file of that name is in the way`)
  assert.not.match(res.stderr, /EEXIST|ENOTDIR/)
})
test('a --data folder with no service database in it (a typo) is said, not made; keys create starts one', () => {
  const typo = join(home, 'dat')
  for (const args of [
    ['keys', 'list'],
    ['wallet', 'show', '--account', 'a'],
  ]) {
    const res = cli(...args, '--data', typo)
    assert.equal(
      [res.status, lines(res.stderr)],
      [66, [`error: no service database in ${typo} (--data names the folder reelforge serve keeps its data in; reelforge keys create starts one)`]],
    )
    assert.not.ok(existsSync(typo), 'nothing made')
  }
  assert.is(cli('keys', 'create', '--data', typo).status, 0)
  assert.is(cli('keys', 'list', '--data', typo).status, 0, 'there now')
})
test('the summary says what was made: a picture is no "1 frames @ 25 fps", one track is a track', () => {
  const png = cli('render', write('card.json', edit), '--format', 'png', '-o', join(home, 'card.png'))
  assert.is(png.status, 0, png.stderr)
  assert.match(lines(png.stdout)[1]!, /^ {2}160x90 picture, \d+\.\d\d MB$/)
  const valid = cli('validate', write('card.json', edit))
  assert.equal(lines(valid.stdout), ['valid: 1 track, 1 clip, mp4'])
})
test('still -t with a negative time is its own check\'s one line (not Node\'s "ambiguous"), exit 64', () => {
  const res = cli('still', write('card.json', edit), '-t', '-1')
  assert.equal([res.status, lines(res.stderr)], [64, ['error: -t must be seconds from the start, not -1']])
})
test('a key the database does not hold is one error line, as every slip is', () => {
  const data = join(home, 'keys-data')
  assert.is(cli('keys', 'create', '--data', data).status, 0)
  const wallet = cli('wallet', 'deposit', '5', '--key', 'rf_live_bogus', '--data', data)
  assert.equal([wallet.status, lines(wallet.stderr)], [64, ['error: unknown or revoked key']])
  const revoke = cli('keys', 'revoke', 'nope', '--data', data)
  assert.equal(lines(revoke.stderr), ['error: no active key nope'])
  assert.is.not(revoke.status, 0)
})
test('every suggestion names a flag the command has', () => {
  const gif = cli('still', write('card.json', edit), '-o', join(home, 'x.gif'))
  assert.is(gif.status, 64)
  assert.equal(lines(gif.stderr), [`error: -o ${join(home, 'x.gif')}: a still is a png, jpg or bmp picture (name the file .png, .jpg or .bmp)`])
  const txt = cli('render', write('card.json', edit), '-o', join(home, 'x.txt'))
  assert.is(txt.status, 64)
  assert.equal(lines(txt.stderr), [`error: -o ${join(home, 'x.txt')}: the edit renders mp4, not txt (name the file .mp4)`])
  const webm = cli('render', write('card.json', edit), '-o', join(home, 'x.webm'))
  assert.match(webm.stderr, /\(name the file \.mp4, or choose the format with --format webm\)/)
  for (const [command, res] of [
    ['still', gif],
    ['render', txt],
    ['render', webm],
  ] as const) {
    const help = cli(command, '--help')
    for (const flag of flagsIn(res.stderr)) assert.ok(flagsIn(help.stdout + help.stderr).includes(flag), `${command} --help lists ${flag}`)
  }
})

test.run()
