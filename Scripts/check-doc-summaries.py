#!/usr/bin/env python3
"""Every public symbol declared in Sources/ has a summary (a /// comment).

Reads the symbol graphs Scripts/build-docs.sh emits. Members that implement a standard
protocol requirement (`description`, `init(from:)`, `==`...) take the protocol's summary and
are not listed. Exits 1, naming file and line, when a symbol has none.
"""
import glob
import json
import os
import sys
inherited={'description','debugDescription','init(from:)','encode(to:)','hash(into:)','==(_:_:)','!=(_:_:)','<(_:_:)','init(rawValue:)','rawValue','hashValue','errorDescription','startIndex','endIndex','subscript(_:)','index(after:)','index(before:)','init(stringLiteral:)','init(arrayLiteral:)','init(stringValue:)','init(intValue:)','stringValue','intValue','allCases'}
missing=[]
for f in glob.glob(sys.argv[1]+'/*.symbols.json'):
    if '@' in os.path.basename(f) and 'StateMachine' not in os.path.basename(f).split('@')[1]: continue
    d=json.load(open(f))
    for s in d['symbols']:
        loc=s.get('location',{}).get('uri','')
        if '/Sources/' not in loc: continue
        if s.get('docComment'): continue
        name=s['names']['title']
        if name in inherited: continue
        missing.append((loc.split('/Sources/')[1]+':'+str(s['location']['position']['line']+1), s['kind']['identifier'], '.'.join(s['pathComponents'])))
for m in sorted(set(missing)): print(*m)
print(f"{len(set(missing))} public symbols without a summary", file=sys.stderr)
sys.exit(1 if missing else 0)
