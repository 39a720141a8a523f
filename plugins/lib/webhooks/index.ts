export { signWebhook, verifyWebhook, SIGNATURE_HEADER } from './signature.js'
export { httpSender } from './http-sender.js'
export type { SendResult, WebhookSender } from './http-sender.js'
