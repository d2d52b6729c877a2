#!/usr/bin/env python3
"""The declarations public in the release that are public no longer (run by Scripts/api-check.sh).

Usage: api-no-longer-public.py <the tool's baseline dumps> <public symbol graphs now> <the tool's report>

`swift package diagnose-api-breaking-changes` builds the package with its package name, so a
declaration made `package` still counts as there and its removal from the public API is not
reported. This compares the release's API (the tool's baseline dumps) with the public symbol
graphs of the code now, by the declarations' paths (`Row.isWildcard`): each declaration the
release had, that no public symbol has the path of now, and that the tool did not already report,
is a break. A declaration inside one that is gone is not listed again, nor are the members of a
type that is a type alias now (they are the aliased type's).
"""
import glob, json, os, sys
baseline_dir, graphs_dir, report_path = sys.argv[1], sys.argv[2], sys.argv[3]
report = open(report_path, errors='replace').read() if os.path.exists(report_path) else ''
paths, aliases = set(), set()
for f in glob.glob(os.path.join(graphs_dir, '*.symbols.json')):
    for s in json.load(open(f))['symbols']:
        if s['accessLevel'] not in ('public', 'open'): continue
        path = '.'.join(s['pathComponents'])
        paths.add(path)
        if s['kind']['identifier'] == 'swift.typealias': aliases.add(path)
types = {'TypeNominal', 'TypeFunc', 'TypeNameAlias'}
# What a conformance gives a type that is still there (a synthesized `hash(into:)`, an inferred
# `RawValue`): the symbol graphs do not list these, and they stay as long as the conformance,
# whose removal the tool reports itself.
conformance = {'hash(into:)', 'hashValue', 'encode(to:)', 'init(from:)', 'rawValue', 'init(rawValue:)', 'allCases',
               'RawValue', 'AllCases', 'Element', 'Index', 'Indices', 'Iterator', 'SubSequence', 'ArrayLiteralElement',
               'StringLiteralType', 'ExtendedGraphemeClusterLiteralType', 'UnicodeScalarLiteralType', 'Duration'}
bases = {p.split('(')[0] for p in paths}
breaks = []
def walk(node, names, module):
    decl = node.get('declKind') if 'usr' in node and node.get('kind') not in types | {'Accessor', 'Import', 'Root'} else None
    path = names + [node.get('printedName', '')] if decl else names
    if decl:
        qualified = '.'.join(path)
        if any(p.startswith('_') for p in path) or node.get('isImplicit') or node.get('spi_group_names'):
            return
        if node.get('moduleName') != module or decl == 'Accessor':
            return
        if path[-1] in conformance and '.'.join(path[:-1]) in paths:
            return
        # An enum case with associated values is `cancel` there and `cancel(_:)` here.
        if qualified not in paths and not (decl == 'EnumElement' and qualified in bases):
            if not any(qualified + end in report for end in (' ', '\n')):
                breaks.append(f"API breakage: {decl.lower()} {qualified} is no longer public")
            return
        if qualified in aliases:
            return
    for child in node.get('children', []):
        if child.get('kind') not in types: walk(child, path, module)
for f in sorted(glob.glob(os.path.join(baseline_dir, '*.json'))):
    module = os.path.basename(f)[:-len('.json')]
    walk(json.load(open(f))['ABIRoot'], [], module)
for line in sorted(set(breaks)): print(line)
