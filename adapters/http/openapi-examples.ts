/**
 * Examples of the main operations, by `operationId`: what a reader copies first. They sit in the document
 * beside the schemas they illustrate, where the lint (`no-invalid-media-type-examples`) checks them
 * against those schemas, so an example cannot drift from what the service accepts and answers.
 */
export interface OperationExamples {
  /** Request bodies, by example name. */
  request?: Record<string, { summary: string; value: unknown }>
  /** Response bodies, by status, by example name. */
  responses?: Record<number, Record<string, { summary: string; value: unknown }>>
}

const JOB = '3f0c2a8e-5b7d-4c1e-9a6f-2d8b4e7c1a90'
const ACCOUNT = 'b5e1d7c2-8a4f-4e3b-9c6d-1f2a3b4c5d6e'
const AT = '2025-01-01T12:00:00.000Z'

const edit = {
  timeline: {
    background: '#000000',
    tracks: [{ clips: [{ asset: { type: 'title', text: 'Hello', style: 'minimal' }, start: 0, length: 3 }] }],
  },
  output: { format: 'mp4', resolution: 'sd' },
}

const render = {
  id: JOB,
  status: 'COMPLETE',
  stage: null,
  progress: 1,
  url: `https://reelforge.example/v1/files/${JOB}/video.mp4`,
  poster: null,
  thumbnail: null,
  duration: 3,
  credits_used: 3,
  error: null,
  warnings: [],
  created_at: AT,
  updated_at: '2025-01-01T12:00:05.000Z',
}

const wallet = { balance: 10500, held: 0, available: 10500, low_balance_threshold: 100 }

export const EXAMPLES: Record<string, OperationExamples> = {
  createRender: {
    request: { title: { summary: 'A three-second title card', value: edit } },
    responses: { 201: { queued: { summary: 'Queued; poll GET /v1/render/{id}', value: { jobId: JOB, status: 'QUEUED', warnings: [] } } } },
  },
  getRender: {
    responses: {
      200: {
        complete: { summary: 'A finished render', value: render },
        processing: {
          summary: 'A render in progress',
          value: { ...render, status: 'PROCESSING', stage: 'rendering', progress: 0.4, url: null, duration: null, credits_used: 0 },
        },
      },
    },
  },
  createKey: {
    request: { sandbox: { summary: 'A sandbox key on the same account', value: { sandbox: true, account_id: ACCOUNT } } },
    responses: {
      201: {
        created: {
          summary: 'The clear key, shown this once',
          value: {
            id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
            account_id: ACCOUNT,
            prefix: 'rf_test_9f8e',
            sandbox: true,
            admin: false,
            created_at: AT,
            revoked_at: null,
            key: 'rf_test_9f8e7d6c5b4a39281706f5e4d3c2b1a0a1b2c3d4',
          },
        },
      },
    },
  },
  createWalletDeposit: {
    request: { deposit: { summary: 'Credit an account', value: { amount: 10000, account_id: ACCOUNT, note: 'invoice 2025-001' } } },
    responses: { 201: { wallet: { summary: 'The wallet after the deposit', value: wallet } } },
  },
}
