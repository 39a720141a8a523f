/**
 * ffmpeg arguments written as one command line: `` ffmpegArgs`-v error -y -f lavfi -i ${source} ${out}` ``.
 *
 * Why: argument arrays of one string per item are hard to read and a formatter spreads them one per line, so
 * every command becomes 30 lines that look alike. Written text splits on whitespace; each interpolated value
 * stays one argument whatever it holds (filter graphs with spaces or quotes, paths), and joins the text it
 * touches without a space (`` music-${n}.m4a `` is one argument). There is no quoting: nothing goes through a shell.
 */
export function ffmpegArgs(text: TemplateStringsArray, ...values: Array<string | number>): string[] {
  const args: string[] = []
  // Whether the last argument may still grow: a value was just added and no whitespace has followed it.
  let open = false
  text.forEach((part, i) => {
    const words = part.split(/\s+/)
    words.forEach((word, j) => {
      if (j === 0 && open && args.length) args[args.length - 1] += word
      else if (word) args.push(word)
    })
    if (i === values.length) return
    const value = String(values[i])
    const touches = part === '' ? open : !/\s$/.test(part)
    if (touches && args.length) args[args.length - 1] += value
    else args.push(value)
    open = true
  })
  return args
}
