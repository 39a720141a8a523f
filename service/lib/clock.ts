/** Time, injectable so tests walk a 7-hour retry schedule in milliseconds. */
export interface Clock {
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private t = Date.now()) {}
  now() {
    return this.t
  }
  advance(ms: number) {
    this.t += ms
  }
}
