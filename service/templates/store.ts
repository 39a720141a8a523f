import { placeholdersOf, type Compositor, type Placeholder } from '../../core/index.js'
import type { Principal } from '../accounts/keys.js'
import type { Billing } from '../billing/billing.js'
import type { ServiceConfig } from '../config.js'
import { nowIso, type Db } from '../db/db.js'
import { inject, injectable } from '../composition/di.js'
import { ServiceError } from '../errors.js'
import type { JobEvents } from '../jobs/job-events.js'
import { uuidv7 } from '../lib/ids.js'
import { dryRun, type SubmitDeps } from '../jobs/submit.js'
import type { JobStore } from '../jobs/store.js'
import type { JobQueue } from '../queue/queue.js'
import { TOKENS } from '../composition/tokens.js'
import { describeIssues, parseBody } from '../lib/validate.js'
import { TemplateInputSchema, TemplateUpdateSchema, type TemplateInput, type TemplateUpdate } from './schema.js'

/** A saved template. `mergeFields`: the `{{ KEY }}` placeholders it uses and the fields each feeds (`placeholdersOf`). */
export interface Template {
  id: string
  name: string
  template: Record<string, unknown>
  mergeFields: Placeholder[]
  sandbox: boolean
  createdAt: string
  updatedAt: string
}
export type TemplateSummary = Pick<Template, 'id' | 'name' | 'createdAt' | 'updatedAt'>

type Row = { id: string; name: string; template: string; sandbox: number; created_at: string; updated_at: string }
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const notFound = (id: string) => new ServiceError('E_NOT_FOUND', `no template ${id}`)

/**
 * Saved templates, per account and per environment: a sandbox key sees and makes sandbox templates only, a
 * live key live ones (Shotstack's stage and v1 are separate), and anything else reads as missing (404), so
 * ids reveal nothing. Every saved template passed the validation a render of it would meet (`dryRun`: the
 * edit with its own merge defaults, the caller's limits, sources and callback), a placeholder without a
 * default standing for any value of its field, so a bad one is refused on save with its paths under
 * `template.` rather than on every render.
 */
@injectable()
export class TemplateStore {
  private readonly submit: SubmitDeps

  constructor(
    @inject(TOKENS.Db) private readonly db: Db,
    @inject(TOKENS.Config) config: ServiceConfig,
    @inject(TOKENS.Jobs) jobs: JobStore,
    @inject(TOKENS.Queue) queue: JobQueue,
    @inject(TOKENS.Renderer) renderer: Compositor,
    @inject(TOKENS.Billing) billing: Billing,
    @inject(TOKENS.Events) events: JobEvents,
  ) {
    // All of submission's parts, so the check on save is dryRun itself, never a copy that could drift.
    this.submit = { config, jobs, queue, renderer, billing, events }
  }

  /** Saves a template (400 naming `name` or `template.<path>`); returns it with its merge fields. */
  async create(principal: Principal, input: TemplateInput): Promise<Template> {
    const { name, template } = parseBody(TemplateInputSchema, input)
    await this.check(principal, template)
    const now = nowIso()
    const saved: Template = { id: uuidv7(), name, template, mergeFields: placeholdersOf(template), sandbox: principal.sandbox, createdAt: now, updatedAt: now }
    await this.db.run('INSERT INTO templates (id, account_id, sandbox, name, template, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      saved.id,
      principal.accountId,
      saved.sandbox,
      name,
      JSON.stringify(template),
      now,
      now,
    ])
    return saved
  }

  /** One of the caller's templates (its environment's); 404 `E_NOT_FOUND` otherwise. */
  async get(principal: Principal, id: string): Promise<Template> {
    const row = UUID.test(id)
      ? await this.db.get<Row>('SELECT * FROM templates WHERE id = ? AND account_id = ? AND sandbox = ?', [
          id.toLowerCase(),
          principal.accountId,
          principal.sandbox,
        ])
      : undefined
    if (!row) throw notFound(id)
    const template = JSON.parse(row.template) as Record<string, unknown>
    return {
      id: row.id,
      name: row.name,
      template,
      mergeFields: placeholdersOf(template),
      sandbox: !!row.sandbox,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }
  }

  /** The caller's templates (its environment's), newest first, without their bodies. */
  async list(principal: Principal): Promise<TemplateSummary[]> {
    const rows = await this.db.all<Row>(
      'SELECT id, name, created_at, updated_at FROM templates WHERE account_id = ? AND sandbox = ? ORDER BY created_at DESC, id DESC',
      [principal.accountId, principal.sandbox],
    )
    return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at, updatedAt: r.updated_at }))
  }

  /** Renames and/or replaces a template (a new template is validated as on create); returns it as saved. */
  async update(principal: Principal, id: string, input: TemplateUpdate): Promise<Template> {
    const change = parseBody(TemplateUpdateSchema, input)
    const current = await this.get(principal, id)
    if (change.template) await this.check(principal, change.template)
    const template = change.template ?? current.template
    const next: Template = { ...current, name: change.name ?? current.name, template, mergeFields: placeholdersOf(template), updatedAt: nowIso() }
    await this.db.run('UPDATE templates SET name = ?, template = ?, updated_at = ? WHERE id = ? AND account_id = ? AND sandbox = ?', [
      next.name,
      JSON.stringify(next.template),
      next.updatedAt,
      current.id,
      principal.accountId,
      principal.sandbox,
    ])
    return next
  }

  /** Deletes one of the caller's templates; 404 when it has none by that id. */
  async remove(principal: Principal, id: string): Promise<void> {
    const gone = UUID.test(id)
      ? await this.db.run('DELETE FROM templates WHERE id = ? AND account_id = ? AND sandbox = ?', [id.toLowerCase(), principal.accountId, principal.sandbox])
      : 0
    if (!gone) throw notFound(id)
  }

  /** The render checks of `template` for this caller: a 400 with every issue's path under `template`. */
  private async check(principal: Principal, template: Record<string, unknown>): Promise<void> {
    const verdict = await dryRun(this.submit, principal, template, { template: true })
    if (verdict.valid) return
    const issues = verdict.issues.map((i) => ({ ...i, path: i.path ? `template.${i.path}` : 'template' }))
    throw new ServiceError('E_VALIDATION', `invalid template: ${describeIssues(issues)}`, { issues })
  }
}
