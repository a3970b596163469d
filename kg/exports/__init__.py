"""The graph for other tools: GraphML and GEXF (`kg.exports.xml`), VOSviewer JSON maps (`kg.exports.vosviewer`),
Parquet tables (`kg.exports.tables`, imported on its own: it needs pandas and pyarrow)."""
from kg.exports.vosviewer import vosviewer_json, write_vosviewer
from kg.exports.xml import write_gexf, write_graphml

__all__ = ["vosviewer_json", "write_gexf", "write_graphml", "write_vosviewer"]
