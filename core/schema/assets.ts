import type { GenericSchema } from 'valibot'
import * as media from './assets-media.js'
import * as text from './assets-text.js'
import * as markup from './assets-markup.js'

const BY_TYPE = {
  video: media.VideoAssetSchema,
  image: media.ImageAssetSchema,
  audio: media.AudioAssetSchema,
  luma: media.LumaAssetSchema,
  'text-to-image': media.TextToImageAssetSchema,
  'image-to-video': media.ImageToVideoAssetSchema,
  'text-to-speech': media.TextToSpeechAssetSchema,
  title: text.TitleAssetSchema,
  text: text.TextAssetSchema,
  'rich-text': text.RichTextAssetSchema,
  caption: text.CaptionAssetSchema,
  'rich-caption': text.RichCaptionAssetSchema,
  html: markup.HtmlAssetSchema,
  html5: markup.Html5AssetSchema,
  shape: markup.ShapeAssetSchema,
  svg: markup.SvgAssetSchema,
}
/**
 * The schema of every Shotstack asset type, by `type`. An asset plugin normally reuses its entry
 * (`schema: ImageAssetSchema`); a type with no plugin yet still validates against it.
 */
export const SHOTSTACK_ASSET_SCHEMAS: Record<string, GenericSchema> = BY_TYPE
/** The same, typed entry by entry (the generated `AssetTypes` is checked against it). */
export type AssetSchemas = typeof BY_TYPE
