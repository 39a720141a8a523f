import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ffmpegArgs } from '../../core/index.js'

test('written text splits on whitespace, values stay whole', () => {
  const graph = "nullsrc=s=64x64,geq=lum='random(1)*255':cb=128"
  assert.equal(ffmpegArgs`-v error  -y\n -f lavfi -i ${graph} -t ${2} out file.mp4`, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    graph,
    '-t',
    '2',
    'out',
    'file.mp4',
  ])
})

test('a value with spaces is one argument', () => {
  assert.equal(ffmpegArgs`-metadata ${'title=A B'} x`, ['-metadata', 'title=A B', 'x'])
})

test('values join the text they touch', () => {
  const dir = '/tmp/a b'
  assert.equal(ffmpegArgs`-i ${dir}/music-${30}.m4a -y`, ['-i', '/tmp/a b/music-30.m4a', '-y'])
  assert.equal(ffmpegArgs`sine=duration=${5}`, ['sine=duration=5'])
  assert.equal(ffmpegArgs`${'a'}${'b'} ${'c'}`, ['ab', 'c'])
})

test('leading value and empty text', () => {
  assert.equal(ffmpegArgs`${'x'} -y`, ['x', '-y'])
  assert.equal(ffmpegArgs``, [])
})

test.run()
