#!/usr/bin/python3
"""Where a render's instructions go, by stage, from callgrind (issue 32's "Where the time goes").

For each scene S, two profiles of the same stripped release `crisp`:

    valgrind --tool=callgrind --callgrind-out-file=DIR/o.S.1.2 crisp render Tests/CrispSVGTests/Fixtures/scenes/S.svg --bench 2
    valgrind --tool=callgrind --callgrind-out-file=DIR/o.S.1.4 crisp render Tests/CrispSVGTests/Fixtures/scenes/S.svg --bench 4

    /usr/bin/python3 scripts/bench/where_time_goes.py DIR S1 S2 ...

Each function's self cost in the second minus the first, halved, is its cost per render (parsing
and start-up cancel out); functions are put in stages by name (the rules below) and the table
gives each stage's share. Instruction counts do not depend on the machine's load."""
import subprocess, re, sys, collections
def prof(f):
    """Self cost per function (callgrind_annotate, no threshold)."""
    out=subprocess.run(['callgrind_annotate','--inclusive=no','--threshold=100',f],capture_output=True,text=True).stdout
    d=collections.Counter()
    for line in out.splitlines():
        m=re.match(r'\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$',line)
        if m and 'PROGRAM TOTALS' not in line:
            d[m.group(2)]+=int(m.group(1).replace(',',''))
    return d
def stage(fn):
    """The stage a function belongs to, by the first rule whose word is in its name."""
    f=fn
    rules=[('curve edges: walk',['accumulateCurves','curveColumns','curveRow']),
           ('curve edges: build',['addCubicExact','addQuadraticExact','addMonotoneCurve','CurveEdge','flattenCurvesToEdges']),
           ('line edges: sweep',['accumulate','Accumulate','addDownward','sortEdges']),
           ('resolve + composite',['resolve','over_','crisp_over','cells','Composite','blit','Blit','SourceOver','memset','memcpy','Span','fill']),
           ('gradient shading',['Gradient','gradient','shade','Shade','radial','Radial','concentric','focal']),
           ('Swift runtime, malloc',['swift_','swift::','malloc','_int_free','free','dl-lookup','dl_lookup','conformsTo']),
           ('stroking, dashing',['Stroke','stroke','Dash','dash','emitJoin','emitArc','emitCap']),
           ('flattening, paths, line edges',['flatten','Flatten','addLine','appendEdge','CGPath','EdgeSink','LineSink']),
           ]
    for name,keys in rules:
        if any(k in f for k in keys): return name
    return 'other'

folder = sys.argv[1]
columns = ['curve edges: walk', 'curve edges: build', 'line edges: sweep', 'resolve + composite', 'gradient shading',
           'stroking, dashing', 'flattening, paths, line edges', 'Swift runtime, malloc', 'other']
print('| scene | instructions a render | ' + ' | '.join(columns) + ' |')
print('|---|---:|' + '---:|' * len(columns))
for s in sys.argv[2:]:
    a = prof(f'{folder}/o.{s}.1.2'); b = prof(f'{folder}/o.{s}.1.4')
    per = collections.Counter()
    for k in set(a) | set(b):
        per[stage(k)] += (b[k] - a[k]) / 2
    total = sum(per.values())
    print(f'| {s} | {total / 1e6:.2f} M | ' + ' | '.join(f'{per[c] / total * 100:.0f} %' for c in columns) + ' |')
