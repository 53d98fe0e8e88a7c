"""xml.etree.ElementTree: parse a catalog, query with XPath subset, modify and write."""
import xml.etree.ElementTree as ET

tree = ET.parse("docs/catalog.xml")
root = tree.getroot()
print(root.tag, root.attrib, len(root))
for part in root.findall("part"):
    price = part.find("price")
    tags = [t.text for t in part.iter("tag")]
    print(part.get("sku"), part.findtext("name"), price.text, price.get("currency"), tags)
print([p.get("sku") for p in root.findall("./part[@category='fastener']")])
print([e.text for e in root.iterfind(".//price[@currency='EUR']")])
new = ET.SubElement(root, "part", sku="E-500", category="tool")
ET.SubElement(new, "name").text = "Hex key set"
ET.SubElement(new, "price", currency="EUR").text = "7.90"
for price in root.iter("price"):
    if price.get("currency") == "USD":
        price.set("currency", "EUR")
        price.text = f"{float(price.text) * 0.92:.2f}"
root.remove(root.find("part[@sku='B-200']"))
ET.indent(tree, space="  ")
tree.write("catalog-updated.xml", encoding="utf-8", xml_declaration=True)
print(open("catalog-updated.xml", encoding="utf-8").read())
el = ET.fromstring("<a x='1'><b>text<c/>tail</b></a>")
print(ET.tostring(el, encoding="unicode"), el.find("b").text, el.find("b/c").tail)
