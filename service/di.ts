// tsyringe needs the Reflect metadata polyfill loaded before it is; importing decorators from here
// guarantees that order for every service module, whichever entry point loads it first.
import 'reflect-metadata'
export { inject, injectable } from 'tsyringe'
