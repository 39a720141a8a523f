import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { shotstackStatus } from '../../../adapters/http/shotstack/envelope.js'
import { JOB_STATUSES, type JobStage } from '../../../service/api-types.js'

// Shotstack's SDKs poll `getRender` until the status word is `done` or `failed`: every job status and stage of
// reelforge must land on one of Shotstack's words (RenderResponseData.status in its OpenAPI), in the right one.

const SHOTSTACK_WORDS = ['queued', 'fetching', 'preprocessing', 'rendering', 'saving', 'done', 'failed']
const STAGES: (JobStage | null)[] = [null, 'fetching', 'rendering', 'encoding', 'saving']

test('each status and stage maps to the word Shotstack uses for it', () => {
  const cases: [string, JobStage | null, string][] = [
    ['QUEUED', null, 'queued'],
    ['PROCESSING', 'fetching', 'fetching'],
    ['PROCESSING', 'rendering', 'rendering'],
    ['PROCESSING', 'encoding', 'rendering'], // Shotstack has one word for drawing and encoding
    ['PROCESSING', 'saving', 'saving'],
    ['PROCESSING', null, 'rendering'], // claimed, no stage reported yet
    ['COMPLETE', null, 'done'],
    ['FAILED', null, 'failed'],
  ]
  for (const [status, stage, word] of cases) assert.is(shotstackStatus(status, stage), word, `${status}/${stage}`)
})

test('a finished or queued job keeps its word whatever stage a row still holds', () => {
  for (const stage of STAGES) {
    assert.is(shotstackStatus('COMPLETE', stage), 'done')
    assert.is(shotstackStatus('FAILED', stage), 'failed', 'a render that failed while saving is failed, not saving')
    assert.is(shotstackStatus('QUEUED', stage), 'queued', 'a retried job waits as queued')
  }
})

test("no combination leaves Shotstack's vocabulary (the SDK would poll a word it never expects)", () => {
  for (const status of JOB_STATUSES) for (const stage of STAGES) assert.ok(SHOTSTACK_WORDS.includes(shotstackStatus(status, stage)), `${status}/${stage}`)
})

test.run()
