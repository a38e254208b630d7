package io.tributary.admin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import io.tributary.autoconfigure.TableTrouble;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

/**
 * What the overview shows of one pipeline's tables, whatever their number: how many are in each
 * phase, how many each rule took, how many need attention, and one page of those the filter keeps.
 * A page lists the tables that need attention first, the most pressing first (see
 * {@link TableTrouble}), then the others grouped by rule as {@link DisplayFormat#byRule} groups
 * them; a group cut by a page break is headed again on the next page.
 */
public final class PipelineOverview {

	/** Tables per page. */
	public static final int PAGE_SIZE = 50;

	/** Pages linked on each side of the current one, besides the first and the last. */
	private static final int PAGE_LINKS_AROUND = 2;

	private final PipelineStatus status;

	private final int index;

	private final List<PhaseCount> phases;

	private final int trouble;

	private final List<RuleCount> rules;

	private final int matching;

	private final int page;

	private final int pages;

	private final List<Row> rows;

	private PipelineOverview(PipelineStatus status, int index, List<PhaseCount> phases, int trouble,
			List<RuleCount> rules, int matching, int page, int pages, List<Row> rows) {
		this.status = status;
		this.index = index;
		this.phases = phases;
		this.trouble = trouble;
		this.rules = rules;
		this.matching = matching;
		this.page = page;
		this.pages = pages;
		this.rows = rows;
	}

	/**
	 * Builds the overview of a pipeline.
	 * @param status the pipeline's status
	 * @param index the pipeline's position on the page, for the rows' ids
	 * @param filter which tables to list
	 * @param page the page asked for, from 1; one past the end reads as the last
	 * @param format groups the tables by rule
	 */
	static PipelineOverview of(PipelineStatus status, int index, TableFilter filter, int page, DisplayFormat format) {
		List<TableStatus> tables = status.tables();
		List<DisplayFormat.RuleGroup> groups = format.byRule(tables);
		Map<String, Integer> groupOrder = new HashMap<>();
		Map<String, String> groupSummary = new HashMap<>();
		List<RuleCount> rules = new ArrayList<>(groups.size());
		for (DisplayFormat.RuleGroup group : groups) {
			groupOrder.put(group.rule(), groupOrder.size());
			groupSummary.put(group.rule(), group.summary());
			long inTrouble = group.tables().stream().filter((table) -> TableTrouble.of(table) != null).count();
			rules.add(new RuleCount(group.rule(), group.tables().size(), inTrouble, group.summary()));
		}
		Map<TableStatus.Phase, Integer> byPhase = new EnumMap<>(TableStatus.Phase.class);
		List<Row> kept = new ArrayList<>();
		int trouble = 0;
		for (int position = 0; position < tables.size(); position++) {
			TableStatus table = tables.get(position);
			TableTrouble why = TableTrouble.of(table);
			byPhase.merge(table.phase(), 1, Integer::sum);
			trouble += (why != null) ? 1 : 0;
			if (filter.keeps(table)) {
				kept.add(new Row(table, position, why, null));
			}
		}
		kept.sort(Comparator.comparingInt((Row row) -> (row.trouble() != null) ? row.trouble().ordinal() : Integer.MAX_VALUE)
			.thenComparingInt((row) -> (row.trouble() != null) ? 0 : groupOrder.get(row.table().rule()))
			.thenComparingInt(Row::position));
		int pages = Math.max(1, (kept.size() + PAGE_SIZE - 1) / PAGE_SIZE);
		int shown = Math.max(1, Math.min(page, pages));
		List<Row> slice = kept.subList(Math.min((shown - 1) * PAGE_SIZE, kept.size()),
				Math.min(shown * PAGE_SIZE, kept.size()));
		long keptInTrouble = kept.stream().filter((row) -> row.trouble() != null).count();
		List<PhaseCount> phases = new ArrayList<>();
		byPhase.forEach((phase, count) -> phases.add(new PhaseCount(phase.name().toLowerCase(Locale.ROOT),
				format.words(phase).toLowerCase(Locale.ROOT), count)));
		return new PipelineOverview(status, index, List.copyOf(phases), trouble, List.copyOf(rules), kept.size(),
				shown, pages, headed(slice, keptInTrouble, groupSummary, format));
	}

	/** Heads the rows where a new part of the list starts: those that need attention, and each rule. */
	private static List<Row> headed(List<Row> slice, long inTrouble, Map<String, String> groupSummary,
			DisplayFormat format) {
		List<Row> rows = new ArrayList<>(slice.size());
		boolean troubleShown = false;
		Row previous = null;
		for (Row row : slice) {
			Heading heading = null;
			if (row.trouble() != null) {
				if (previous == null) {
					heading = new Heading(Heading.TROUBLE, null, format.plural(inTrouble, "table") + " "
							+ ((inTrouble == 1) ? "needs" : "need") + " attention, the most pressing first");
					troubleShown = true;
				}
			}
			else if (previous == null || previous.trouble() != null
					|| !Objects.equals(previous.table().rule(), row.table().rule())) {
				String rule = row.table().rule();
				if (rule != null) {
					heading = new Heading(Heading.RULE, rule, groupSummary.get(rule));
				}
				else if (troubleShown) {
					heading = new Heading(Heading.OWN, null, "Listed on their own");
				}
			}
			rows.add(new Row(row.table(), row.position(), row.trouble(), heading));
			previous = row;
		}
		return List.copyOf(rows);
	}

	/** Returns the pipeline's status. */
	public PipelineStatus status() {
		return this.status;
	}

	/** Returns the pipeline's position on the page. */
	public int index() {
		return this.index;
	}

	/** Returns how many tables the pipeline has. */
	public long total() {
		return this.status.tables().size();
	}

	/** Returns how many tables are in each phase, the phases without any left out, in the phases' order. */
	public List<PhaseCount> phases() {
		return this.phases;
	}

	/** Returns how many tables need attention. */
	public long trouble() {
		return this.trouble;
	}

	/** Returns how many tables each rule took, those listed on their own first. */
	public List<RuleCount> rules() {
		return this.rules;
	}

	/**
	 * Returns whether to count the tables by rule above the list: when some rule took tables and
	 * they do not fit on one page, where the rule's headings in the list would show only some of them.
	 */
	public boolean rulesSummarized() {
		return total() > PAGE_SIZE && this.rules.stream().anyMatch((rule) -> rule.rule() != null);
	}

	/** Returns how many tables the filter keeps. */
	public long matching() {
		return this.matching;
	}

	/** Returns the page shown, from 1. */
	public int page() {
		return this.page;
	}

	/** Returns how many pages the tables the filter keeps take, at least 1. */
	public int pages() {
		return this.pages;
	}

	/** Returns the position of the first table shown among those the filter keeps, from 1; 0 when none is. */
	public long first() {
		return this.rows.isEmpty() ? 0 : (this.page - 1L) * PAGE_SIZE + 1;
	}

	/** Returns the position of the last table shown among those the filter keeps. */
	public long last() {
		return (this.page - 1L) * PAGE_SIZE + this.rows.size();
	}

	/** Returns the tables of the page shown, each headed where a part of the list starts. */
	public List<Row> rows() {
		return this.rows;
	}

	/**
	 * Returns the pages to link: the first, the last, and a few around the one shown, with a 0 where
	 * pages are skipped.
	 */
	public List<Integer> pageLinks() {
		List<Integer> links = new ArrayList<>();
		for (int page = 1; page <= this.pages; page++) {
			boolean near = Math.abs(page - this.page) <= PAGE_LINKS_AROUND;
			if (page == 1 || page == this.pages || near) {
				links.add(page);
			}
			else if (links.get(links.size() - 1) != 0) {
				links.add(0);
			}
		}
		return links;
	}

	/**
	 * Tables of one phase.
	 *
	 * @param phase the phase, lower case, as in {@code catching_up}
	 * @param words the phase in words, as in {@code catching up}
	 * @param count how many tables are in it
	 */
	public record PhaseCount(String phase, String words, long count) {

	}

	/**
	 * Tables of one rule.
	 *
	 * @param rule the rule, as in {@code cdc.tables[2]}, or {@code null} for the tables listed on
	 * their own
	 * @param tables how many tables it took
	 * @param trouble how many of them need attention
	 * @param summary how many it took, by phase
	 */
	public record RuleCount(String rule, long tables, long trouble, String summary) {

	}

	/**
	 * One table of the page.
	 *
	 * @param table its status
	 * @param position its position in the pipeline's status, for its row's id
	 * @param trouble why it needs attention, or {@code null}
	 * @param heading the heading of the part of the list it starts, or {@code null}
	 */
	public record Row(TableStatus table, int position, TableTrouble trouble, Heading heading) {

	}

	/**
	 * The heading of a part of the list.
	 *
	 * @param kind {@link #TROUBLE}, {@link #RULE} or {@link #OWN}
	 * @param rule the rule, for a rule's heading
	 * @param summary what the part holds, in a few words
	 */
	public record Heading(String kind, String rule, String summary) {

		/** Heads the tables that need attention. */
		public static final String TROUBLE = "trouble";

		/** Heads a rule's tables. */
		public static final String RULE = "rule";

		/** Heads the tables listed on their own, after those that need attention. */
		public static final String OWN = "own";

	}

}
