"""Descriptive statistics of a numeric column (rounded for stability)."""
import statistics as st

values = [float(x) for x in open("data/numbers.txt")]
print("n", len(values))
print("mean", round(st.mean(values), 6))
print("fmean", round(st.fmean(values), 6))
print("median", st.median(values), "low", st.median_low(values), "high", st.median_high(values))
print("mode", st.mode(values), "multimode", st.multimode([1, 1, 2, 2, 3]))
print("pstdev", round(st.pstdev(values), 6))
print("stdev", round(st.stdev(values), 6))
print("variance", round(st.variance(values), 6))
print("quartiles", [round(q, 4) for q in st.quantiles(values, n=4)])
print("deciles", [round(q, 4) for q in st.quantiles(values, n=10, method="inclusive")])
print("harmonic", round(st.harmonic_mean([2.5, 3, 10]), 6))
print("geometric", round(st.geometric_mean([1, 3, 9, 27]), 6))
x = [1, 2, 3, 4, 5, 6]
y = [2.1, 3.9, 6.2, 7.8, 10.1, 12.2]
print("correlation", round(st.correlation(x, y), 6))
slope, intercept = st.linear_regression(x, y)
print("regression", round(slope, 6), round(intercept, 6))
print("ints mean", st.mean([1, 2, 3, 4]), type(st.mean([1, 2, 3, 4])).__name__)
nd = st.NormalDist(mu=100, sigma=15)
print("normal", round(nd.cdf(130), 6), round(nd.inv_cdf(0.975), 4), round(nd.pdf(100), 8))
try:
    st.mean([])
except st.StatisticsError:
    print("StatisticsError on empty data")
