/** A comment line this often keeps proxies and load balancers from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000

/**
 * Server-Sent Events from an async sequence of records: each is an `update` event, the last one `done`; the
 * response ends after it, or when the client goes away (the sequence is stopped).
 */
export function eventStream(records: AsyncGenerator<object>): Response {
  const encoder = new TextEncoder()
  let keepAlive: NodeJS.Timeout | undefined
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      keepAlive = setInterval(() => controller.enqueue(encoder.encode(': keep-alive\n\n')), KEEP_ALIVE_MS)
      try {
        let previous: object | undefined
        for await (const record of records) {
          if (previous) controller.enqueue(encoder.encode(`event: update\ndata: ${JSON.stringify(previous)}\n\n`))
          previous = record
        }
        if (previous) controller.enqueue(encoder.encode(`event: done\ndata: ${JSON.stringify(previous)}\n\n`))
        controller.close()
      } catch (e) {
        controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify({ message: (e as Error).message })}\n\n`))
        controller.close()
      } finally {
        clearInterval(keepAlive)
      }
    },
    cancel() {
      clearInterval(keepAlive)
      void records.return(undefined)
    },
  })
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' } })
}
