// Experiment (`npx tsx benchmarks/experiments/gpu-yuv.ts`): does converting frames to YUV 4:2:0 on the GL side
// beat ffmpeg's swscale? (a) readPixels RGBA → ffmpeg -pix_fmt rgba → x264 veryfast; (b) a pack shader writes the
// I420 planes into a W/4 × 3H/2 RGBA target → readPixels (1.5 bytes a pixel) → ffmpeg -pix_fmt yuv420p → x264.
// Same synthetic 1080p scene, same run, twice each. Results in benchmarks/README.md.
import { spawn } from 'node:child_process'
import { ensureDisplay } from '../../core/index.js'
import { createGLContext } from '../../core/render/gl-context.js'

process.env.DISPLAY ??= await ensureDisplay()

const W = 1920,
  H = 1080,
  N = Number(process.env.N ?? 240)
const gl = await createGLContext(W, H)

function program(vs: string, fs: string) {
  const p = gl.createProgram()!
  for (const [type, src] of [
    [gl.VERTEX_SHADER, vs],
    [gl.FRAGMENT_SHADER, fs],
  ] as const) {
    const s = gl.createShader(type)!
    gl.shaderSource(s, src)
    gl.compileShader(s)
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s)!)
    gl.attachShader(p, s)
  }
  gl.linkProgram(p)
  return p
}
const quad = gl.createBuffer()
gl.bindBuffer(gl.ARRAY_BUFFER, quad)
gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW)
const VS = 'attribute vec2 p; varying vec2 uv; void main(){ uv = p*0.5+0.5; gl_Position = vec4(p,0,1); }'
// A moving colourful pattern: the scene.
const scene = program(
  VS,
  'precision highp float; varying vec2 uv; uniform float t; void main(){ gl_FragColor = vec4(0.5+0.5*sin(uv.x*40.0+t), 0.5+0.5*sin(uv.y*30.0-t*1.3), 0.5+0.5*sin((uv.x+uv.y)*20.0+t*0.7), 1.0); }',
)
// Pack: target W/4 × 3H/2; rows [0,H) Y, then U (2 rows per texel row), then V. BT.601 limited (swscale's default).
const pack = program(
  VS,
  `precision highp float; varying vec2 uv; uniform sampler2D src; uniform vec2 size;
float Y(vec3 c){ return (16.0 + 65.481*c.r + 128.553*c.g + 24.966*c.b)/255.0; }
float U(vec3 c){ return (128.0 - 37.797*c.r - 74.203*c.g + 112.0*c.b)/255.0; }
float V(vec3 c){ return (128.0 + 112.0*c.r - 93.786*c.g - 18.214*c.b)/255.0; }
vec3 px(float x, float y){ return texture2D(src, vec2((x+0.5)/size.x, 1.0-(y+0.5)/size.y)).rgb; }
vec3 px2(float x, float y){ return 0.25*(px(x,y)+px(x+1.0,y)+px(x,y+1.0)+px(x+1.0,y+1.0)); }
void main(){
  vec2 o = floor(gl_FragCoord.xy);
  float W = size.x, H = size.y;
  if (o.y < H) { float x = o.x*4.0; gl_FragColor = vec4(Y(px(x,o.y)), Y(px(x+1.0,o.y)), Y(px(x+2.0,o.y)), Y(px(x+3.0,o.y))); return; }
  float r = o.y - H; bool isV = r >= H/4.0; if (isV) r -= H/4.0;
  float i = r*W/4.0*2.0 + o.x*4.0; // index of the first of 4 chroma samples in the plane (W/2 per row)
  vec4 outv;
  for (int k = 0; k < 4; k++) { float j = i + float(k); float cy = floor(j/(W/2.0)); float cx = j - cy*(W/2.0); vec3 c = px2(cx*2.0, cy*2.0); outv[k] = isV ? V(c) : U(c); }
  gl_FragColor = outv;
}`,
)
const tex = gl.createTexture()
gl.bindTexture(gl.TEXTURE_2D, tex)
gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, W, H, 0, gl.RGBA, gl.UNSIGNED_BYTE, null)
for (const [k, v] of [
  [gl.TEXTURE_MIN_FILTER, gl.NEAREST],
  [gl.TEXTURE_MAG_FILTER, gl.NEAREST],
  [gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE],
  [gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE],
] as const)
  gl.texParameteri(gl.TEXTURE_2D, k, v)

const outTex = gl.createTexture()
gl.bindTexture(gl.TEXTURE_2D, outTex)
gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, W / 4, (H * 3) / 2, 0, gl.RGBA, gl.UNSIGNED_BYTE, null)
gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
const fbo = gl.createFramebuffer()
gl.bindFramebuffer(gl.FRAMEBUFFER, fbo)
gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, outTex, 0)
if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) throw new Error('fbo incomplete')
gl.bindFramebuffer(gl.FRAMEBUFFER, null)

function draw(p: WebGLProgram, t: number) {
  gl.useProgram(p)
  const loc = gl.getAttribLocation(p, 'p')
  gl.enableVertexAttribArray(loc)
  gl.vertexAttribPointer(loc, 2, gl.FLOAT, false, 0, 0)
  gl.uniform1f(gl.getUniformLocation(p, 't'), t)
  gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4)
}

async function run(mode: 'rgba' | 'yuv') {
  const ff = spawn(
    'ffmpeg',
    [
      '-v',
      'error',
      '-y',
      '-f',
      'rawvideo',
      '-pix_fmt',
      mode === 'rgba' ? 'rgba' : 'yuv420p',
      '-s',
      `${W}x${H}`,
      '-r',
      '30',
      '-i',
      'pipe:0',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-pix_fmt',
      'yuv420p',
      `/tmp/yuv-${mode}.mp4`,
    ],
    { stdio: ['pipe', 'ignore', 'inherit'] },
  )
  const bufs = [0, 1, 2].map(() => new Uint8Array(mode === 'rgba' ? W * H * 4 : (W * H * 3) / 2))
  const started = performance.now()
  let glMs = 0
  for (let f = 0; f < N; f++) {
    const a = performance.now()
    gl.viewport(0, 0, W, H)
    draw(scene, f / 10)
    const buf = bufs[f % 3]!
    if (mode === 'rgba') gl.readPixels(0, 0, W, H, gl.RGBA, gl.UNSIGNED_BYTE, buf)
    else {
      gl.bindTexture(gl.TEXTURE_2D, tex)
      gl.copyTexSubImage2D(gl.TEXTURE_2D, 0, 0, 0, 0, 0, W, H)
      gl.bindFramebuffer(gl.FRAMEBUFFER, fbo)
      gl.viewport(0, 0, W / 4, (H * 3) / 2)
      gl.useProgram(pack)
      gl.uniform2f(gl.getUniformLocation(pack, 'size'), W, H)
      draw(pack, 0)
      gl.readPixels(0, 0, W / 4, (H * 3) / 2, gl.RGBA, gl.UNSIGNED_BYTE, buf)
      gl.bindFramebuffer(gl.FRAMEBUFFER, null)
    }
    glMs += performance.now() - a
    if (!ff.stdin.write(buf)) await new Promise((r) => ff.stdin.once('drain', r))
  }
  ff.stdin.end()
  await new Promise((r) => ff.once('close', r))
  const s = (performance.now() - started) / 1000
  console.log(`${mode}: ${(N / s).toFixed(1)} fps overall, GL side ${(glMs / N).toFixed(1)} ms/frame`)
  return s
}
const a = await run('rgba')
const b = await run('yuv')
const a2 = await run('rgba')
const b2 = await run('yuv')
console.log(`yuv / rgba wall: ${(b / a).toFixed(2)}, ${(b2 / a2).toFixed(2)}`)
process.exit(0)
