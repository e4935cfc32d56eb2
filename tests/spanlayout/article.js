/*
 * article.js: the TiDB Dashboard article's span layout as published (its
 * TypeScript, types stripped, the logic unchanged), for make bench to time
 * spanlayout against the article's own code, and for sl-article-c-rows to
 * check that article.c is a port of the same algorithm.
 *	node article.js FILE > rows
 *
 * Between the two rules of "---" is the article's code: buildTree (the
 * spans into an object keyed by id, children pushed in the object's order
 * and sorted by start, longer first), calcMaxEndTime by calcParentMaxEndTime
 * from every leaf up to the root (the bottom-up variant, the one the
 * article keeps), and calcDepth with updateParentChildDepth.  Around it,
 * the least that reads spans(5) and writes what article.c writes: each
 * track's parent-0 spans are the children of one synthetic root at depth
 * -1 (so they are on row 0, as article.c's calc_depth(band, nb, -1) puts
 * them), and every span is written in preorder, roots by (start, longer
 * first, position), as "id parent start duration track row name".
 *
 * As published: numbers are JavaScript doubles (ids and times past 2^53
 * are rounded), a span whose parent is missing is in no tree and keeps
 * row 0, and the article's functions recurse as deep as the trees (node's
 * default stack holds a chain of some thousands of spans: run node
 * --stack-size=65500 for deeper ones; gen.c's trees are at most 25 deep).
 * The file is read as latin1 so that names are passed on byte for byte.
 */
'use strict'
const fs = require('fs')

// --- the article's code (types stripped) ---

function buildTree(allSpans) {
  // convert arr to map
  let spansObj = allSpans.reduce((accu, cur) => {
    accu[cur.span_id] = cur
    return accu
  }, {})

  // set children and parent
  Object.values(spansObj).forEach((span) => {
    const parent = spansObj[span.parent_id]
    span.parent = parent
    // the root span has no parent
    if (parent) {
      parent.children.push(span)
    }
  })

  // sort children
  Object.values(spansObj).forEach((span) => {
    span.children.sort((a, b) => {
      let delta = a.relative_begin_unix_time_ns - b.relative_begin_unix_time_ns
      if (delta === 0) {
        // make the span with longer duration in the front when they have the same begin time
        // so we can draw the span with shorter duration first
        // to make them closer to the parent span
        delta = b.duration_ns - a.duration_ns
      }
      return delta
    })
  })
  return spansObj
}

function calcMaxEndTime(spansObj) {
  Object.values(spansObj)
    .filter((span) => span.children.length === 0) // find leaf spans
    .forEach(calcParentMaxEndTime)
}

// from bottom to top
function calcParentMaxEndTime(span) {
  const parent = span.parent
  if (parent === undefined) return

  if (span.max_relative_end_time_ns > parent.max_relative_end_time_ns) {
    parent.max_relative_end_time_ns = span.max_relative_end_time_ns
  }
  calcParentMaxEndTime(parent)
}

// from top to bottom
function calcDepth(parentSpan) {
  const childrenMaxIdx = parentSpan.children.length - 1
  // keep the same logic as datadog
  // compare the spans from right to left
  for (let i = childrenMaxIdx; i >= 0; i--) {
    const curSpan = parentSpan.children[i]

    if (i === childrenMaxIdx) {
      curSpan.depth = parentSpan.depth + 1
    } else {
      const lastSpan = parentSpan.children[i + 1]
      if (
        curSpan.max_relative_end_time_ns >
          lastSpan.relative_begin_unix_time_ns ||
        curSpan.relative_begin_unix_time_ns ===
          lastSpan.relative_begin_unix_time_ns
      ) {
        if (lastSpan.max_child_depth === lastSpan.depth) {
          // lastSpan has no children
          curSpan.depth = lastSpan.max_child_depth + 1
        } else {
          // keep the same logic as datadog
          // add a more empty layer
          curSpan.depth = lastSpan.max_child_depth + 2
        }
      } else {
        curSpan.depth = parentSpan.depth + 1
        // equal
        // curSpan.depth = lastSpan.depth
      }
    }
    curSpan.max_child_depth = curSpan.depth
    updateParentChildDepth(curSpan)
    calcDepth(curSpan)
  }
}

// from bottom to top
function updateParentChildDepth(span) {
  const parent = span.parent
  if (parent === undefined) return

  if (span.max_child_depth > parent.max_child_depth) {
    parent.max_child_depth = span.max_child_depth
    updateParentChildDepth(parent)
  }
}

// --- end of the article's code ---

function die(what) {
  process.stderr.write(`article.js: ${what}\n`)
  process.exit(1)
}

// One span of a spans(5) line, as the article's TraceSpan -> IFullSpan
// conversion makes it; parent_read is the parent as read, for the output.
function fullSpan(line) {
  const f = line.split('\t')
  if (f.length < 6 || f[4] === '') die('bad line')
  return {
    span_id: Number(f[0]),
    parent_id: Number(f[1]),
    begin_unix_time_ns: Number(f[2]),
    duration_ns: Number(f[3]),
    event: f.length === 6 ? f[5] : f.slice(5).join('\t'),
    node_type: f[4],
    parent_read: Number(f[1]),
    children: [],
    relative_begin_unix_time_ns: 0,
    relative_end_unix_time_ns: 0,
    max_relative_end_time_ns: 0,
    depth: 0,
    max_child_depth: 0,
  }
}

function main() {
  if (process.argv.length !== 3) die('usage: node article.js FILE')
  const allSpans = []
  const trackRoots = new Map()
  let roots = []

  for (const line of fs.readFileSync(process.argv[2], 'latin1').split('\n'))
    if (line !== '' && line[0] !== '#') allSpans.push(fullSpan(line))

  // The article's relative times, from its root span's start.
  const rootSpan = allSpans.find((span) => span.parent_id === 0)
  const startTime = rootSpan ? rootSpan.begin_unix_time_ns : 0
  allSpans.forEach((span) => {
    span.relative_begin_unix_time_ns = span.begin_unix_time_ns - startTime
    span.relative_end_unix_time_ns =
      span.relative_begin_unix_time_ns + span.duration_ns
    span.max_relative_end_time_ns = span.relative_end_unix_time_ns
  })

  // Each track's roots under one synthetic root, keyed where no id is.
  for (const span of allSpans) {
    if (span.parent_id !== 0) continue
    let root = trackRoots.get(span.node_type)
    if (root === undefined) {
      root = { span_id: `track ${span.node_type}`, parent_id: 0,
        children: [], depth: -1, max_child_depth: -1,
        relative_begin_unix_time_ns: 0, max_relative_end_time_ns: 0 }
      trackRoots.set(span.node_type, root)
    }
    span.parent_id = root.span_id
    roots.push(span)
  }
  const spansObj = buildTree(allSpans.concat([...trackRoots.values()]))
  calcMaxEndTime(spansObj)
  for (const root of trackRoots.values()) calcDepth(root)

  // Preorder, roots by (start, longer first, position), as article.c.
  roots = roots.map((span, i) => [span, i]).sort((a, b) =>
    a[0].begin_unix_time_ns - b[0].begin_unix_time_ns ||
    b[0].duration_ns - a[0].duration_ns || a[1] - b[1]).map((x) => x[0])
  const stack = roots.reverse()
  let out = []
  while (stack.length > 0) {
    const s = stack.pop()
    out.push(`${s.span_id}\t${s.parent_read}\t${s.begin_unix_time_ns}\t` +
      `${s.duration_ns}\t${s.node_type}\t${s.depth}\t${s.event}\n`)
    for (let i = s.children.length - 1; i >= 0; i--) stack.push(s.children[i])
    if (out.length === 65536) {
      write(out)
      out = []
    }
  }
  write(out)
}

function write(lines) {
  const b = Buffer.from(lines.join(''), 'latin1')

  for (let at = 0; at < b.length;) at += fs.writeSync(1, b, at)
}

main()
