"""Co-authorship and topic analysis of the knowledge graph, and its report.

Modules: `communities` (seeded Louvain, modularity), `centrality` (eigenvector per component,
betweenness, components), `collaboration` (its indicators), `table` (`Table`: a report table whose
rows are made as it is read), `tables` (the report's tables), `assemble` (`analyze`, the report
dict), `report` (Markdown, JSON and CSV files). Nothing is cached on the graphs given.
"""
from kg.analysis.assemble import REPORT_VERSION, analyze
from kg.analysis.centrality import betweenness, component_summary, eigenvector_by_component, eigenvector_components
from kg.analysis.communities import Partition, communities, community_summary, louvain, modularity
from kg.analysis.report import to_json, to_markdown, write_report
from kg.analysis.collaboration import collaboration
from kg.analysis.table import Table
from kg.analysis.tables import (author_table, bridging_methods, cross_track, dataset_table, edge_table, method_table,
                                track_table)

__all__ = ["REPORT_VERSION", "Partition", "Table", "analyze", "author_table", "betweenness", "bridging_methods",
           "collaboration", "communities", "community_summary", "component_summary", "cross_track", "dataset_table",
           "edge_table", "eigenvector_by_component", "eigenvector_components", "louvain", "method_table", "modularity",
           "to_json", "to_markdown", "track_table", "write_report"]
