"""Prints the text elements of an SVG drawn by gnuplot, one per line:
"ylabel<TAB>TEXT" for rotated ones (y labels), "text<TAB>TEXT" for the
rest.  Exits 1 when the file is not well-formed XML (tests/plot/lib.sh)."""
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def walk(node, rotated):
    rotated = rotated or "rotate(" in (node.get("transform") or "")
    if node.tag == SVG + "text":
        text = "".join(node.itertext())
        print(("ylabel" if rotated else "text") + "\t" + text.strip())
        return
    for child in node:
        walk(child, rotated)


try:
    walk(ET.parse(sys.argv[1]).getroot(), False)
except ET.ParseError as e:
    print(e, file=sys.stderr)
    sys.exit(1)
