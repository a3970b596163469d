"""Records -> the NetworkX hub graph (`build_graph`), its projections, and author identity."""
from kg.graph.build import build_graph, paper_label, proposed_method
from kg.graph.nodes import (area_node, author_node, dataset_node, method_node, nodes_of_kind, paper_authors,
                            paper_datasets, paper_methods, paper_node, paper_track, track_node)
from kg.graph.projections import Cuts, association_strength, coauthor_graph, is_whole, topic_graph

__all__ = ["Cuts", "area_node", "association_strength", "author_node", "build_graph", "coauthor_graph",
           "dataset_node", "is_whole", "method_node", "nodes_of_kind", "paper_authors", "paper_datasets",
           "paper_label", "paper_methods", "paper_node", "paper_track", "proposed_method", "topic_graph",
           "track_node"]
