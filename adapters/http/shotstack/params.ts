import type { H3Event } from 'h3'
import type { Principal } from '../../../service/accounts/keys.js'
import { json } from './envelope.js'

/** A named part of the route's path (`:id`, `:url`); '' when absent, which every lookup answers with 404. */
export const param = (event: H3Event, name = 'id') => event.context.params?.[name] ?? ''

/** A DELETE on `/{thing}/:id`: removes the caller's own one and answers 204 with no body, as Shotstack does. */
export const deleteById =
  (remove: (caller: Principal, id: string) => Promise<unknown>) =>
  async (event: H3Event, caller: Principal): Promise<Response> => {
    await remove(caller, param(event))
    return json(204, null)
  }
