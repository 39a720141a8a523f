// The names Shotstack's Create API accepts (its SDK's enums, shotstack-sdk 0.2.9), one list per option.

const list = (names: string) => names.split('|')

/** Amazon Polly voices of Shotstack's own text-to-speech. */
export const POLLY_VOICES = list(
  'Hala|Lisa|Arlet|Hiujin|Zhiyu|Sofie|Laura|Olivia|Amy|Emma|Brian|Arthur|Kajal|Niamh|Aria|Ayanda|Ivy|Joanna|Kendra|Kimberly|Salli|Joey|Justin|Kevin|Matthew|Ruth|Stephen|Suvi|Léa|Rémi|Gabrielle|Liam|Vicki|Daniel|Hannah|Bianca|Adriano|Takumi|Kazuha|Tomoko|Seoyeon|Ida|Ola|Camila|Vitória|Vitoria|Thiago|Inês|Ines|Lucia|Sergio|Mia|Andrés|Lupe|Pedro|Elin',
)
export const POLLY_LANGUAGES = list(
  'cmn-CN|da-DK|de-DE|en-AU|en-GB|en-IN|en-US|es-ES|es-MX|es-US|fr-CA|fr-FR|it-IT|ja-JP|hi-IN|ko-KR|nb-NO|nl-NL|pl-PL|pt-BR|pt-PT|sv-SE|en-NZ|en-ZA|ca-ES|de-AT|yue-CN|ar-AE|fi-FI',
)
/** ElevenLabs' premade voices. */
export const ELEVENLABS_VOICES = list('Adam|Antoni|Arnold|Bella|Domi|Elli|Josh|Rachel|Sam')
export const OPENAI_MODELS = list('gpt-3.5-turbo|gpt-4')
export const STABILITY_ENGINES = list(
  'stable-diffusion-xl-1024-v0-9|stable-diffusion-xl-1024-v1-0|stable-diffusion-v1-6|stable-diffusion-512-v2-1|stable-diffusion-xl-beta-v2-2-2',
)
export const STABILITY_PRESETS = list(
  '3d-model|analog-film|anime|cinematic|comic-book|digital-art|enhance|fantasy-art|isometric|line-art|low-poly|modeling-compound|neon-punk|origami|photographic|pixel-art|tile-texture',
)
/** D-ID's Premium presenters. */
export const DID_AVATARS = list('jack|lana|lily|matt|rian')
export const HEYGEN_AVATARS = list(
  'Angela|Bill|Daisy|Derek|Eva|Jake|Jeff|Jerome|Joon|Kayla|Kent|Luna|Mark|Matthew|Monica|Peter|Selina|Tanya|Thomas|Tina|Tyler|Vanessa|Vera|Wilson|Zoey',
)
export const HEYGEN_VOICES = list(
  'Abbi - Natural|Adam - Natural|Aiston - Friendly|Alice - Newscaster|Alison - Cheerful|Amber - Friendly|Amy - Warm|Ana - Cheerful|Antoni - Friendly|Aria - Newscaster|Arnold - Cheerful|Arthur - Natural|Bella - Friendly|Belle - Natural|Brandon - Warm|Brian - Natural|Bruce - Natural|Cerise - Cheerful|Christopher - Calm|Clara - Professional|Connor - Natural|Dahlia - Friendly|Davis - Professional|Dean - Natural|Delbert - Cheerful|Edward - Friendly|Elaine - Calm|Emily - Natural|Emma - Newscaster|Eric - Newscaster|Grace - Natural|Hailey - Calm|Indira - Cheerful|Isabella - Cheerful|Jacob - Natural|Jahmai - Friendly|Jane - Serious|Jason - Serious|Jelle - Friendly|Jen - Natural|Jenny - Professional|Jodi - Cheerful|Joey - Calm|Johan - Friendly|Josie - Cheerful|Keanan - Natural|Keith - Cheerful|Kellie - Friendly|Lauren - Friendly|Leah - Natural|Liam - Professional|Libby - Natural|Lily - Professional|Lucas - Natural|Luke - Professional|Luna - Natural|Marieke - Natural|Matthew - Professional|Michelle - Natural|Mitchell - Natural|Molly - Newscaster|Monica - Calm|Natasha - Professional|Neerja - Newscaster|Noah - Serious|Oliver - Newscaster|Olivia - Calm|Paul - Natural|Prabhat - Natural|Raveena - Natural|Rudi - Friendly|Ryan - Professional|Sam - Natural|Sara - Cheerful|Sherry - Friendly|Sonia - Warm|Thomas - Natural|Todd - Professional|Tony - Professional|Tracy - Cheerful|Wayne - Natural|Wilder - Natural|Wille - Natural|William - Friendly',
)
