"""exports"""
